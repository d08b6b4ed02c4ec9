// The throughput baseline: a bare Node http server answering one page from memory — the bytes the
// portal rendered, with their type — i.e. the ceiling for any Node server on this machine. Run as a
// child process (pinned like the portal). argv[2]: JSON {file, contentType}. Prints {"port": n} once listening; exits when its stdin closes, so it never outlives
// the benchmark.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const { file, contentType } = JSON.parse(process.argv[2]);
const body = readFileSync(file);
const headers = { 'content-type': contentType, 'content-length': body.length };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 5_000; // as in scripts/serve.mjs
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));

process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
