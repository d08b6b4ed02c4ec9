// The cold start's yardstick (scripts/bench/server.mjs bareStart): a Node program of the portal's size
// at start — it imports every package the server imports before its first page — then a bare http
// server that answers 200. argv[2]: JSON {port, host, packages}. Exits on SIGTERM, as the portal does.
import http from 'node:http';

const { port, host, packages } = JSON.parse(process.argv[2]);
// All at once, as a module graph's static imports load; resolved from here, i.e. the portal's node_modules.
await Promise.all(packages.map((name) => import(name)));
const server = http.createServer((_req, res) => res.end('ok'));
server.listen(port, host);
process.once('SIGTERM', () => process.exit(0));
