// Runs one autocannon measurement in its own process (pinned to a core apart from the server's) and
// prints a JSON summary. argv[2]: JSON {url, method, headers, body, connections, duration, warmup};
// method defaults to GET, body (a string) is sent as is with every request.
import autocannon from 'autocannon';

const { url, method = 'GET', headers, body, connections, duration, warmup } = JSON.parse(process.argv[2]);
const run = autocannon({
  url,
  method,
  headers,
  body,
  connections,
  duration,
  // Discarded first seconds: JIT, caches and keep-alive sockets warm up before we count.
  warmup: { connections, duration: warmup },
});

// autocannon's own percentiles are whole milliseconds, which reads "0 ms" for a fast server; each
// response event carries the exact duration, so we rank those (the warm-up reports elsewhere).
const latencies = [];
run.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
const result = await run;
latencies.sort((a, b) => a - b);
const percentile = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;

console.log(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: percentile(50),
    p99: percentile(99),
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }),
);
