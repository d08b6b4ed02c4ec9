// `npm run bench`: builds, serves the production build and measures what a visitor and the server
// pay: JS/CSS per route (with budgets), throughput against a bare Node baseline, start-up time and
// memory, Lighthouse scores (with targets). Prints markdown tables, writes BENCHMARKS.md, and exits
// non-zero when a budget, a target or a load request fails. docs/decisions/013-benchmark.md says why
// it measures this way. Everything runs on 127.0.0.1; servers and the temp dir go away on exit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { measureBundles } from './bench/bundles.mjs';
import { cleanUp, onCleanup } from './bench/cleanup.mjs';
import { measureLighthouse } from './bench/lighthouse.mjs';
import { measureLoad } from './bench/load.mjs';
import { renderDocument } from './bench/report.mjs';
import { build, cpuPinning, residentMemory, root, signIn, startPortal } from './bench/server.mjs';

const KB = 1024;
const PASSWORD = 'Portal@2026';
const ACCOUNTS = {
  vendedor: { path: '/api/plataforma/v1/login', body: { user_name: 'vendedor@legado.demo', password: PASSWORD } },
  parceiro: { path: '/api/gateway/login', body: { userName: 'parceiro@parceiro.demo', password: PASSWORD } },
};

// JS budgets by what the page hydrates: nothing, the login form, or only the portal shell.
const ROUTES = [
  { path: '/', island: 'none', jsBudget: 0 },
  { path: '/termo-de-uso', island: 'none', jsBudget: 0 },
  { path: '/signin', island: 'login', jsBudget: 90 * KB },
  { path: '/v2/login', island: 'login', jsBudget: 90 * KB },
  { path: '/home', island: 'shell', jsBudget: 100 * KB, account: 'vendedor' },
  { path: '/v2/home', island: 'shell', jsBudget: 100 * KB, account: 'parceiro' },
];

const LOAD = { connections: 10, duration: 10, warmup: 2 };
const LOAD_TARGETS = [
  { name: 'login page', path: '/signin' },
  { name: 'signed-in v2 home', path: '/v2/home', account: 'parceiro' },
  { name: 'BFF user API', path: '/api/bff/v1/usuario', account: 'parceiro' },
];

const LIGHTHOUSE = { pages: ['/', '/signin', '/v2/login'], runs: 3, targets: { performance: 95, accessibility: 95 } };

// Other work on the machine moves every figure here; the load average tells a reader how quiet it was.
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(' / ');

function environment(pinning) {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    cpuCount: cpus.length,
    memory: os.totalmem(),
    loadAverage: loadAverage(),
    node: process.version,
    pinning: pinning.enabled
      ? 'server pinned to core 0, load generator to core 1 (taskset)'
      : `not pinned (${pinning.reason})`,
  };
}

async function main() {
  const pinning = cpuPinning();
  const env = environment(pinning);

  console.error('Building…');
  build();
  const tmpDir = mkdtempSync(join(os.tmpdir(), 'portal-bench-'));
  onCleanup(() => rmSync(tmpDir, { recursive: true, force: true }));
  const dataDir = join(tmpDir, 'data');

  console.error('Starting the portal on an empty data directory…');
  const first = await startPortal({ dataDir, pinning });
  onCleanup(first.stop);
  const cookies = {};
  for (const [name, account] of Object.entries(ACCOUNTS)) cookies[name] = await signIn(first.url, account);

  console.error('Weighing JS and CSS per route…');
  const weighed = await measureBundles(first.url, ROUTES.map(({ path, account }) => ({ path, cookie: cookies[account] })));
  const bundles = weighed.routes.map((measured, i) => ({ ...ROUTES[i], ...measured }));

  console.error('Load…');
  const targets = LOAD_TARGETS.map(({ account, ...target }) => ({ ...target, cookie: cookies[account] }));
  const load = await measureLoad({ url: first.url, tmpDir, pinning, targets, ...LOAD });
  const memory = residentMemory(first.child.pid);
  await first.stop();

  // PGlite admits one process per data dir, so the cold start waits for the first server to be gone.
  console.error('Cold start on the seeded data directory…');
  const second = await startPortal({ dataDir, pinning });
  onCleanup(second.stop);

  console.error('Lighthouse…');
  const lighthouse = await measureLighthouse(second.url, LIGHTHOUSE.pages, LIGHTHOUSE.runs);
  await cleanUp();

  const results = {
    environment: { ...env, chromium: weighed.browserVersion, loadAverageAtEnd: loadAverage() },
    bundles,
    load,
    loadSettings: LOAD,
    startup: { firstSeconds: first.startSeconds, coldSeconds: second.startSeconds, ...memory },
    lighthouse,
    lighthouseSettings: LIGHTHOUSE,
  };
  const checks = evaluate(results);
  const document = renderDocument(results, checks);
  console.log(document);
  writeFileSync(join(root, 'BENCHMARKS.md'), document);
  console.error('Wrote BENCHMARKS.md');
  return checks.every((check) => check.pass);
}

/** Every budget, target and load run as a named pass/fail. */
function evaluate({ bundles, load, lighthouse }) {
  const kb = (n) => `${(n / KB).toFixed(1)} KB`;
  const { targets } = LIGHTHOUSE;
  return [
    ...bundles.map((r) => ({
      name: `\`${r.path}\` JS ${kb(r.jsGzip)} gzip ≤ ${kb(r.jsBudget)} (island: ${r.island})`,
      pass: r.jsGzip <= r.jsBudget,
    })),
    ...load.map((r) => ({
      name: `load \`${r.path}\`${r.baseline ? ' (raw baseline)' : ''}: ${r.total} requests, ${r.errors} errors, ${r.non2xx} non-2xx`,
      pass: r.total > 0 && r.errors === 0 && r.non2xx === 0,
    })),
    ...lighthouse.pages.flatMap((p) => [
      { name: `Lighthouse \`${p.path}\` performance ${p.performance} ≥ ${targets.performance}`, pass: p.performance >= targets.performance },
      { name: `Lighthouse \`${p.path}\` accessibility ${p.accessibility} ≥ ${targets.accessibility}`, pass: p.accessibility >= targets.accessibility },
    ]),
  ];
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.error(`${signal}: stopping the servers…`);
    await cleanUp();
    process.exit(130);
  });
}

try {
  const passed = await main();
  process.exitCode = passed ? 0 : 1;
} catch (error) {
  console.error(`Benchmark failed: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
