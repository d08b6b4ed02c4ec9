// `npm test`: runs the vitest suite, then builds the app and runs the Playwright e2e suite,
// and ends with exactly one summary line "N passed, N failed[, N skipped]".
//   npm test           -> everything
//   npm test -- unit   -> vitest only
//   npm test -- e2e    -> build + Playwright only
// Env: CHROMIUM_PATH (browser to use), SKIP_BUILD=1 (reuse the existing dist/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);

const ARTIFACTS = '.test-artifacts';
const VITEST_JSON = path.join(ARTIFACTS, 'vitest.json');
const PLAYWRIGHT_JSON = path.join(ARTIFACTS, 'playwright.json');

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== 'unit' && a !== 'e2e');
if (unknown.length) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}. Use: npm test [-- unit|e2e]`);
  process.exit(2);
}
const wantUnit = args.length === 0 || args.includes('unit');
const wantE2e = args.length === 0 || args.includes('e2e');

const totals = { passed: 0, failed: 0, skipped: 0 };

// Each part's wall time, printed the moment it ends (CI's closing table reads these lines, so a
// run stopped by its budget still says how long the parts before it took).
function timed(name, work) {
  const started = performance.now();
  try {
    return work();
  } finally {
    console.log(`\nstage-time ${name} ${Math.round((performance.now() - started) / 1000)}`);
  }
}

// Children (including Playwright's webServer command `node scripts/serve-test.mjs`, which goes
// through a shell) must find the same Node 24 we run on, not the machine's older node.
process.env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;

function finish() {
  const { passed, failed, skipped } = totals;
  // On a line of its own even if a child's last output did not end one (CI greps for it).
  console.log(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(cmd) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, cmd)));
}

// Headless Chromium without its desktop parts first (Debian's chromium-headless-shell, what
// Playwright itself runs headless): the same engine for a good part less CPU per journey on a 2-core
// machine (decision 079). Full Chromium does as well.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, HEADLESS_SHELL, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((file) => file && isExecutable(file));
}

// Runs a JS entry point on this same Node binary (npm gives us Node 24; a bare `node` may be 20).
function runNode(script, scriptArgs, extraEnv = {}) {
  console.log(`\n$ ${script} ${scriptArgs.join(' ')}`);
  const res = spawnSync(process.execPath, [script, ...scriptArgs], {
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv },
  });
  if (res.error) console.error(`Could not start ${script}: ${res.error.message}`);
  return res.status ?? 1; // null status = killed by a signal
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// nginx lives in sbin, which a non-login PATH may lack.
const hasNginx = () => isExecutable('/usr/sbin/nginx') || onPath('nginx');

// The e2e suite needs a system Chromium (Playwright must never download its own browser), and
// nginx and openssl for the deployment behind a TLS proxy (tests/e2e/behind-proxy.spec.ts, which
// skips loudly without them).
let chromium = findChromium();
const missingPackages = [
  !process.env.CHROMIUM_PATH && !isExecutable(HEADLESS_SHELL) && 'chromium-headless-shell',
  !hasNginx() && 'nginx',
  !onPath('openssl') && 'openssl',
].filter(Boolean);
if (missingPackages.length && wantE2e && process.getuid?.() === 0 && onPath('apt-get')) {
  console.log(`Not found: ${missingPackages.join(', ')}; installing with apt-get…`);
  const apt = (aptArgs) => spawnSync('apt-get', aptArgs, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', ...missingPackages]);
  chromium = findChromium();
}
if (chromium) {
  process.env.CHROMIUM_PATH = chromium;
} else if (wantE2e) {
  console.error(
    'Chromium was not found (looked at $CHROMIUM_PATH, /usr/bin/chromium-headless-shell, /usr/bin/chromium, /usr/bin/chromium-browser).\n' +
      'Install it with `sudo apt-get install -y chromium-headless-shell`, or set CHROMIUM_PATH to a Chromium binary.',
  );
  totals.failed += 1;
  finish();
}

fs.mkdirSync(ARTIFACTS, { recursive: true });

if (wantUnit) {
  // Delete the old report first so a crash can't be mistaken for the previous run's results.
  fs.rmSync(VITEST_JSON, { force: true });
  const engine = process.env.DATABASE_URL ? 'postgresql' : 'pglite';
  // On a PostgreSQL server only the files that reach a database: the unit tests beside the code
  // (src/**) never do (tests/integration/engine-rerun.test.ts holds it), so a second run of them on
  // another engine would test nothing new.
  const files = engine === 'postgresql' ? ['tests/integration/'] : [];
  const status = timed(`vitest (${engine})`, () =>
    runNode('node_modules/vitest/vitest.mjs', ['run', ...files, '--reporter=default', '--reporter=json', `--outputFile=${VITEST_JSON}`]),
  );
  const report = readJson(VITEST_JSON);
  if (!report) {
    console.error(`vitest produced no ${VITEST_JSON} (crashed?); counting it as 1 failure.`);
    totals.failed += 1;
  } else {
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that fails to import or an unhandled error fails the run without failing any test.
    if (status !== 0 && !report.numFailedTests) {
      console.error(`vitest exited with ${status} but reported no failed test; counting it as 1 failure.`);
      totals.failed += 1;
    }
  }
}

if (wantE2e) {
  let built = true;
  if (process.env.SKIP_BUILD === '1') {
    console.log('\nSKIP_BUILD=1: using the existing build.');
  } else if (timed('build', () => runNode('node_modules/astro/bin/astro.mjs', ['build'])) !== 0) {
    console.error('astro build failed; skipping the e2e suite.');
    totals.failed += 1;
    built = false;
  }

  if (built) {
    fs.rmSync(PLAYWRIGHT_JSON, { force: true });
    const status = timed('playwright', () =>
      runNode('node_modules/@playwright/test/cli.js', ['test', '--reporter=list,json'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON,
      }),
    );
    const report = readJson(PLAYWRIGHT_JSON);
    const stats = report?.stats;
    if (!stats) {
      console.error(`Playwright produced no ${PLAYWRIGHT_JSON} (crashed?); counting it as 1 failure.`);
      totals.failed += 1;
    } else {
      totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0); // flaky = passed on retry
      for (const title of flakyJourneys(report)) console.error(`!! passed only on its retry (flaky): ${title}`);
      if (stats.flaky) console.error(`!! ${stats.flaky} journey(s) passed only on a retry: a flake to find and fix (decision 079).`);
      totals.failed += stats.unexpected ?? 0;
      totals.skipped += stats.skipped ?? 0;
      // e.g. the web server did not start, or no tests were found: no test failed, yet the run did.
      if (status !== 0 && !stats.unexpected) {
        console.error(`Playwright exited with ${status} but reported no failed test; counting it as 1 failure.`);
        totals.failed += 1;
      }
    }
  }
}

/** The titles of the journeys that failed first and passed on a retry, from Playwright's JSON report. */
function flakyJourneys(report) {
  const titles = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) if (test.status === 'flaky') titles.push([...path, spec.title].join(' › '));
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, [suite.title]);
  return titles;
}

finish();
