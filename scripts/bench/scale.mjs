// The scale phase of `npm run bench` (issue 29): every page of records at the demo year (1×) and at
// K times it (default 1000×, `npm run scale`), on PostgreSQL and on PGlite — p50 and p99 of single
// signed-in requests, the growth between them, a full year's sales report and the policies' first
// page under load — judged against the issue's budgets (SCALE_BUDGETS) when K is 1000. One database
// per engine, seeded by the portal's first start and copied; the original grown K× by scripts/scale.mjs;
// then both served side by side and measured in alternated rounds (decision 080). Servers, PostgreSQL
// and temp dirs go away however the run ends (cleanup.mjs).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './cleanup.mjs';
import pg from 'pg';
import { measureAlternately, rawSummary, startBaseline } from './load.mjs';
import { requestReport } from './report-generation.mjs';
import { root, signIn, startPortal, startPostgres, stopProcess } from './server.mjs';

export const DEFAULT_SCALE_TIMES = 1000;
export const SCALE_ENGINES = ['postgres', 'pglite'];

/** Requests per route, scale and round: warm-ups (discarded), then the measured ones, one at a time. */
const WARMUPS = 2;
const SAMPLES = 15;
/**
 * Rounds of the whole route list at 1× then at K×, the two databases served side by side (issue 43):
 * each figure is the median of its rounds, and the growth verdict the median round's, so a neighbour's
 * burst during one size's pass weighs on one round, not on the verdict.
 */
export const SCALE_ROUNDS = 3;
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The issue's goals as data (issue 29, "Goals"): judged only when K is `judgedAt` (a smaller K is a
 * quick try: its figures are printed, not judged). Per kind of route:
 * - records (a page of records: first, filtered, deep): p50 and p99 ceilings, and p50 at most
 *   `growth` × its own 1× p50 — or its 1× p50 + `growthFloorMs`, whichever is larger. A page that
 *   answers in 3 ms at 1× would otherwise fail at 6.1 ms, noise on this shared 2-core machine and far
 *   under the 50 ms ceiling; from 10 ms at 1× up the relative rule is the stricter one and rules alone.
 * - search (a name search of users, partners, points of sale) and metrics (aggregates): the ceilings
 *   only, as the issue sets them — a name matches K times the records at K×, so its page is not the
 *   same work as at 1×, and a growth rule would judge the data, not the page.
 * - common-name (issue 42: an insured's common name, "almeida", ~1 % of the insureds — 8 policies at
 *   1×, 822 at 1000×): the ceilings and the growth rule of a page of records, since such a search reads
 *   at most NAME_SEARCH_LIMIT of its matches (lib/insured-search.ts) whatever the book holds.
 * PGlite holds the same ceilings and growth within `pgliteFactor` (one connection in the same process);
 * the report's are absolute on both engines. The load goal is PostgreSQL's, a share of a raw Node
 * server answering the bytes of `/v2/home` (as the main phase's baseline) measured before and after it:
 * until issue 43 a floor of 150 req/s, i.e. 0.34 % of the raw baseline of the main phase's last full
 * run (44,195 req/s, 2026-11-27), when the scale run of 2026-11-28 measured 239 req/s (0.54 %) — now
 * the 1× page's own goal (GOALS.records in scripts/bench.mjs): 1000 times the book holds it.
 */
export const SCALE_BUDGETS = {
  judgedAt: 1000,
  kinds: {
    records: { p50: 50, p99: 150, growth: 2, growthFloorMs: 10 },
    search: { p50: 50, p99: 150 },
    'common-name': { p50: 50, p99: 150, growth: 2, growthFloorMs: 10 },
    metrics: { p50: 50 },
  },
  pgliteFactor: 2,
  report: { seconds: 60, rss: 400 * 1024 * 1024 },
  load: { engine: 'postgres', minShare: 0.003, rawPath: '/v2/home' },
};

const PASSWORD = 'Portal@2026';
/** Who asks: for each page the widest scope that may open it (ADMIN, the legacy admin group), and the partner admin where the issue names it. */
const ACCOUNTS = {
  admin: { path: '/api/gateway/login', body: { userName: 'admin', password: PASSWORD } },
  parceiroAdmin: { path: '/api/gateway/login', body: { userName: 'parceiro.admin@parceiro.demo', password: PASSWORD } },
  legacyAdmin: { path: '/api/plataforma/v1/login', body: { user_name: 'admin@legado.demo', password: PASSWORD } },
  suporte: { path: '/api/plataforma/v1/login', body: { user_name: 'suporte@legado.demo', password: PASSWORD } },
};

/**
 * The pages of records (src/pages; filters as src/lib's list schemas name them). Each page is
 * measured as its `first` page, each `variants` entry (a filtered page, a name search…), and, when it
 * is paged (`pageParam`), its deepest page (deepPath). `kind` picks the budget.
 */
const PAGES = [
  {
    path: '/v2/apolices',
    account: 'admin',
    pageParam: 'page',
    filtered: 'situacao=VIGENTE',
    search: 'segurado=almeida',
    searchKind: 'common-name',
  },
  {
    path: '/apolices',
    account: 'legacyAdmin',
    pageParam: 'page',
    filtered: 'situacao=VIGENTE',
    search: 'segurado=almeida',
    searchKind: 'common-name',
  },
  // Renewals (issue 31): the policies ending within 60 days, soonest first.
  { path: '/v2/renovacoes', account: 'admin', pageParam: 'page', filtered: 'produto=RES' },
  { path: '/v2/renovacoes', account: 'parceiroAdmin', pageParam: 'page', filtered: 'produto=VEU' },
  { path: '/renovacoes', account: 'legacyAdmin', pageParam: 'page', filtered: 'produto=RES' },
  { path: '/v2/historico', account: 'admin', pageParam: 'page', filtered: 'linha=residencial' },
  { path: '/historico', account: 'legacyAdmin', pageParam: 'page', filtered: 'status=VENCIDA' },
  ...['/v2/metricas/evolucao-vendas', '/v2/metricas/atingimento-meta'].flatMap((path) => [
    { path, account: 'parceiroAdmin', kind: 'metrics', filtered: 'produto=RES' },
    { path, account: 'admin', kind: 'metrics', filtered: 'produto=RES' },
  ]),
  { path: '/evolucao-vendas', account: 'legacyAdmin', kind: 'metrics', filtered: 'produto=RES' },
  { path: '/atingir-meta', account: 'legacyAdmin', kind: 'metrics', filtered: 'produto=RES' },
  { path: '/v2/log-acesso', account: 'admin', pageParam: 'pagina', filtered: 'evento=LOGIN' },
  { path: '/v2/usuario/cadastro/consulta', account: 'admin', pageParam: 'pagina', filtered: 'status=ATIVO', search: 'nome=silva' },
  { path: '/consulta-usuarios', account: 'suporte', pageParam: 'pagina', filtered: 'status=ATIVO', search: 'nome=silva' },
  // The users console (issue 32): the biggest page size, the access review (idle users by last sign-in,
  // migration 047), the pending invitations (migration 045) and one user's page with its histories.
  { path: '/v2/usuario/cadastro/consulta?tamanho=100', account: 'admin' },
  { path: '/v2/usuario/revisao-acessos', account: 'admin', pageParam: 'page' },
  { path: '/revisao-acessos', account: 'suporte', pageParam: 'page' },
  { path: '/v2/usuario/convites', account: 'admin', pageParam: 'pagina' },
  { path: '/v2/usuario/8', account: 'admin' },
  // The lookups list nothing before a search: the search is their first page.
  {
    path: '/consulta-pagamento',
    account: 'legacyAdmin',
    pageParam: 'page',
    first: false,
    search: 'segurado=almeida',
    searchKind: 'common-name',
  },
  { path: '/v2/boleto', account: 'admin', pageParam: 'page', first: false, search: 'segurado=almeida', searchKind: 'common-name' },
  { path: '/v2/boleto/recebimentos', account: 'admin', pageParam: 'page' },
  { path: '/relatorio-pagamento', account: 'legacyAdmin', pageParam: 'page' },
  { path: '/v2/parceiros/consulta', account: 'admin', pageParam: 'pagina', filtered: 'status=ativo', search: 'nome=aurora' },
  { path: '/v2/substabelecido/consulta', account: 'parceiroAdmin', pageParam: 'pagina', filtered: 'status=ativo' },
  { path: '/v2/ponto-venda/consulta', account: 'admin', pageParam: 'page', filtered: 'situacao=ATIVO', search: 'busca=centro' },
  {
    path: '/v2/documentos/consulta',
    account: 'admin',
    pageParam: 'page',
    filtered: 'categoria=LAUDO_VISTORIA',
    search: 'segurado=almeida',
    searchKind: 'common-name',
  },
  { path: '/documentos/consulta', account: 'legacyAdmin', pageParam: 'page', search: 'segurado=almeida', searchKind: 'common-name' },
  // Commissions open outside production only (lib/menus.ts nonProduction): measured on a server started as HML.
  { path: '/v2/comissoes/extrato-comissoes', account: 'admin', pageParam: 'page', environment: 'HML' },
  { path: '/v2/comissoes/nota-fiscal', account: 'admin', pageParam: 'page', filtered: 'status=PAGA', environment: 'HML' },
  { path: '/v2/relatorios/vendas/consulta', account: 'parceiroAdmin', pageParam: 'page' },
  { path: '/relatorio-vendas', account: 'legacyAdmin', pageParam: 'page' },
  { path: '/v2/usuario/permissoes/consulta', account: 'admin', pageParam: 'pagina' },
  { path: '/v2/propostas/analise', account: 'admin' },
  // The worklist (issue 31): every kind cut at its limit, whatever the book; the widest scopes and a partner admin's.
  { path: '/v2/pendencias', account: 'admin', filtered: 'tipo=RENOVACAO' },
  { path: '/v2/pendencias', account: 'parceiroAdmin', filtered: 'tipo=PARCELA_VENCIDA' },
  { path: '/pendencias', account: 'legacyAdmin', filtered: 'tipo=RENOVACAO' },
  // The refunds queue (issue 31): one generation's refunds of one status through refunds_queue (migration 041).
  { path: '/v2/restituicoes', account: 'admin', pageParam: 'page', filtered: 'situacao=pagas' },
  { path: '/restituicoes', account: 'legacyAdmin', pageParam: 'page', filtered: 'situacao=devolvidas' },
];

/** Each page as the routes measured: first page, filtered page, name search, deep page (resolved on the running portal). */
export const SCALE_ROUTES = PAGES.flatMap((page) => {
  const kind = page.kind ?? 'records';
  const base = { page: page.path, account: page.account, pageParam: page.pageParam, environment: page.environment ?? 'PRD' };
  return [
    page.first !== false && { ...base, variant: 'first', kind, path: page.path },
    page.filtered && { ...base, variant: 'filtered', kind, path: `${page.path}?${page.filtered}` },
    page.search && {
      ...base,
      variant: 'search',
      kind: page.searchKind ?? (kind === 'records' ? 'search' : kind),
      path: `${page.path}?${page.search}`,
    },
    page.pageParam && { ...base, variant: 'deep', kind, deepOf: page.first === false ? `${page.path}?${page.search}` : page.path },
  ].filter(Boolean);
});

const decodeHtml = (text) => text.replaceAll('&amp;', '&').replaceAll('&#38;', '&').replaceAll('&quot;', '"');

/**
 * The address of a list's deepest page (a keyset list past its count: beyondTheCount). In order: a
 * link the page marks `rel="last"`; the highest-numbered page link of its pagination
 * (PaginationLinks: `aria-label="Página N"`); else `pageParam=fallbackPage` on `listPath` (N from
 * the 1× last page × K; a page past the end shows the last one, lib/list-query pageWithin).
 * Following "Próxima" page by page would take thousands of requests at 1000×.
 */
export function deepPath({ listPath, html, pageParam, fallbackPage }) {
  const last = /<a\b[^>]*\brel="last"[^>]*>/.exec(html)?.[0];
  const lastHref = last && /\bhref="([^"]*)"/.exec(last)?.[1];
  if (lastHref) return decodeHtml(lastHref);
  let best;
  for (const match of html.matchAll(/<a\b[^>]*>/g)) {
    const label = /\baria-label="Página (\d+)"/.exec(match[0]);
    const href = /\bhref="([^"]*)"/.exec(match[0]);
    if (label && href && (!best || Number(label[1]) > best.page)) best = { page: Number(label[1]), href: decodeHtml(href[1]) };
  }
  if (best && best.page > 1) return best.href;
  if (!fallbackPage || fallbackPage <= 1) return undefined;
  const url = new URL(listPath, 'http://x');
  url.searchParams.set(pageParam, String(fallbackPage));
  return `${url.pathname}${url.search}`;
}

/** The last page number a list's first page links to (1 when it has no pagination). */
function lastPageOf(html) {
  let last = 1;
  for (const match of html.matchAll(/aria-label="Página (\d+)"/g)) last = Math.max(last, Number(match[1]));
  return last;
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** One request; a request that fails (a timeout, a reset) answers status 0 and why, so the route fails and the phase goes on. */
async function get(url, path, { cookie, headers }) {
  const started = performance.now();
  try {
    const res = await fetch(`${url}${path}`, {
      headers: { ...headers, cookie },
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text };
  } catch (error) {
    const why = error.cause?.code ?? error.cause?.message ?? error.name ?? error.message;
    return {
      status: 0,
      ms: performance.now() - started,
      text: '',
      failure: `failed after ${Math.round(performance.now() - started)} ms (${why})`,
    };
  }
}

/** p50/p99 of SAMPLES single requests after WARMUPS; any answer but 200 is the route's error. */
async function timeRoute(url, path, options) {
  const first = await get(url, path, options);
  if (first.status !== 200) return { status: first.status, error: first.failure ?? `answered ${first.status}`, html: first.text };
  for (let i = 1; i < WARMUPS; i++) await get(url, path, options);
  const times = [];
  for (let i = 0; i < SAMPLES; i++) {
    const { status, ms, failure } = await get(url, path, options);
    if (status !== 200) return { status, error: `${failure ?? `answered ${status}`} on request ${i + 1}` };
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { status: 200, p50: percentile(times, 0.5), p99: percentile(times, 0.99), html: first.text };
}

/**
 * The deep page of a keyset list whose count passed its bound (lib/keyset-pages.ts: "Página N" with
 * no "de M", no last page to link to): the page its "Próxima" opens after the deepest page a plain
 * number reaches (`pageParam=999999` reads that one) — a page read from a cursor past 1,000 rows,
 * which costs what any deeper one does. Undefined for other lists.
 */
async function beyondTheCount(url, route, html, options) {
  if (!/[?&;]cursor=/.test(html) || /Página \d+ de \d+/.test(html)) return undefined;
  const plain = new URL(route.deepOf, 'http://x');
  plain.searchParams.set(route.pageParam, '999999');
  const page = await get(url, `${plain.pathname}${plain.search}`, options);
  const next = /<a\b[^>]*\brel="next"[^>]*>/.exec(page.text ?? '')?.[0];
  const href = next && /\bhref="([^"]*)"/.exec(next)?.[1];
  return href && decodeHtml(href);
}

/** Every SCALE_ROUTES entry on a running portal: `lastPages` (1×'s last page per list) and `times` feed the deep pages' fallback. */
async function measureRoutes(server, cookies, { routes, headers, times, lastPages, log }) {
  const results = [];
  for (const route of routes) {
    const options = { cookie: cookies[route.account], headers };
    let path = route.path;
    if (route.variant === 'deep') {
      const listing = await get(server.url, route.deepOf, options);
      if (listing.status !== 200) {
        const error = `its list ${listing.failure ?? `answered ${listing.status}`}`;
        results.push({ ...route, path: route.deepOf, status: listing.status, error });
        log(`    ${route.account.padEnd(13)} ${route.deepOf.padEnd(60)} deep page: ${error}`);
        continue;
      }
      const known = lastPages[route.deepOf];
      if (known === undefined) lastPages[route.deepOf] = lastPageOf(listing.text);
      path =
        (await beyondTheCount(server.url, route, listing.text, options)) ??
        deepPath({
          listPath: route.deepOf,
          html: listing.text,
          pageParam: route.pageParam,
          // A list of one page at 1× that links to no other at K× is of one page still.
          fallbackPage: known > 1 ? Math.ceil(known * times) : undefined,
        });
      if (!path) {
        results.push({ ...route, path: `${route.deepOf} (one page)`, skipped: 'one page only' });
        continue;
      }
    }
    const measured = await timeRoute(server.url, path, options);
    const { html: _html, ...figures } = measured;
    results.push({ ...route, path, ...figures });
    log(
      `    ${route.account.padEnd(13)} ${path.padEnd(60)} ${figures.error ?? `p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms`}`,
    );
  }
  return results;
}

async function signInAll(url) {
  const cookies = {};
  for (const [name, account] of Object.entries(ACCOUNTS)) cookies[name] = await signIn(url, account);
  return cookies;
}

/** `node scripts/scale.mjs --times K` on the stopped portal's database (killed on clean-up); its output's last lines. */
function growDatabase({ times, dataDir, databaseUrl, log }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/scale.mjs'), '--times', String(times)], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((done) => child.once('exit', done));
    onCleanup(() => stopProcess(child, exited));
    let output = '';
    const started = performance.now();
    const keep = (chunk) => {
      output = (output + chunk).slice(-6_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) {
        log(`  grown ${times}× in ${seconds.toFixed(0)} s`);
        resolve({ seconds, output });
      } else reject(new Error(`npm run scale -- --times ${times} failed (${code ?? signal}):\n${output}`));
    });
  });
}

/** Policies, quotes, installments and access events: what the two scales hold, read off the grower's table. */
function countsOf(output) {
  const counts = {};
  for (const match of output.matchAll(/^\s+(quotes|policies|installments|access_events|users|companies)\s+(\d+)\s+→\s+(\d+)$/gm))
    counts[match[1]] = { before: Number(match[2]), after: Number(match[3]) };
  return counts;
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor((numbers.length - 1) / 2)];

/** A route's rounds at one scale as one figure: the medians of their p50s and p99s (an error or a skip in any round stands). */
function combineRounds(rounds) {
  const failed = rounds.find((f) => f.error || f.skipped);
  if (failed) return failed;
  return { ...rounds[0], p50: median(rounds.map((f) => f.p50)), p99: median(rounds.map((f) => f.p99)), rounds: rounds.map((f) => f.p50) };
}

/** A copy of the seeded database to serve the 1× rounds beside the grown one: its data dir, or a PostgreSQL database made from it as a template. */
async function copyDatabase({ dataDir, databaseUrl, tmpDir, engine }) {
  if (!databaseUrl) {
    const copy = join(tmpDir, engine, 'data-1x');
    cpSync(dataDir, copy, { recursive: true });
    return { dataDir: copy };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CREATE DATABASE scale_1x TEMPLATE postgres');
  } finally {
    await client.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = '/scale_1x';
  return { dataDir: join(tmpDir, engine, 'unused-1x'), databaseUrl: url.href };
}

/**
 * One engine: a fresh database seeded by the portal's first start and copied, the original grown K×;
 * then, per PORTAL_ENV, a server on each (side by side) and SCALE_ROUNDS alternated rounds of the
 * routes at 1× and K×; at K× a full year's report and (PostgreSQL) the policies' first page under
 * load between two runs of a raw baseline.
 */
async function measureEngine(engine, { times, routes: selected, pinning, headers, tmpDir, log }) {
  const dataDir = join(tmpDir, engine, 'data');
  mkdirSync(join(tmpDir, engine), { recursive: true });
  let databaseUrl;
  if (engine === 'postgres') {
    const postgres = await startPostgres({ own: true });
    if (postgres.skipped) return { engine, skipped: postgres.skipped };
    onCleanup(postgres.stop);
    databaseUrl = postgres.url;
  }
  const start = async (database, environment) => {
    const server = await startPortal({ ...database, pinning, environment });
    onCleanup(server.stop);
    return server;
  };
  const grownDatabase = { dataDir, databaseUrl };

  log(`  ${engine}: the demo year, seeded by the first start, and a copy of it kept at 1×…`);
  const seeding = await start(grownDatabase, 'PRD');
  await signInAll(seeding.url);
  await seeding.stop();
  const database1 = await copyDatabase({ dataDir, databaseUrl, tmpDir, engine });

  log(`  ${engine}: growing it ${times}× (npm run scale)…`);
  const grown = await growDatabase({ times, dataDir, databaseUrl, log });

  const lastPages = {};
  const rounds = { at1: Array.from({ length: SCALE_ROUNDS }, () => []), atK: Array.from({ length: SCALE_ROUNDS }, () => []) };
  let report;
  let load;
  for (const environment of new Set(selected.map((r) => r.environment))) {
    const routes = selected.filter((r) => r.environment === environment);
    const one = await start(database1, environment);
    const big = await start(grownDatabase, environment);
    const [cookies1, cookiesK] = [await signInAll(one.url), await signInAll(big.url)];
    for (let round = 0; round < SCALE_ROUNDS; round++) {
      log(`  ${engine} ${environment}, round ${round + 1} of ${SCALE_ROUNDS}: 1×…`);
      const at1 = await measureRoutes(one, cookies1, { routes, headers, times, lastPages, log });
      log(`  ${engine} ${environment}, round ${round + 1} of ${SCALE_ROUNDS}: ${times}×…`);
      const atK = await measureRoutes(big, cookiesK, { routes, headers, times, lastPages, log });
      rounds.at1[round].push(...at1);
      rounds.atK[round].push(...atK);
    }
    await one.stop();
    // A run of some routes (--routes) measures those alone: not the report, not the load.
    if (environment === 'PRD' && selected === SCALE_ROUTES)
      ({ report, load } = await reportAndLoad(engine, big, cookiesK, { times, pinning, headers, tmpDir, log }));
    await big.stop();
  }

  const measured = rounds.at1[0].map((first, i) => {
    const at1 = combineRounds(rounds.at1.map((round) => round[i]));
    const atK = combineRounds(rounds.atK.map((round) => round[i]));
    const pairs = at1.rounds && atK.rounds ? at1.rounds.map((p50, r) => ({ at1: p50, atK: atK.rounds[r] })) : undefined;
    return {
      page: first.page,
      variant: first.variant,
      kind: first.kind,
      account: first.account,
      at1,
      atK,
      pairs,
      growth: pairs ? median(pairs.map((pair) => pair.atK / pair.at1)) : undefined,
    };
  });
  return { engine, routes: measured, counts: countsOf(grown.output), growSeconds: grown.seconds, report, load };
}

/** At K×: a full year's sales report, and on SCALE_BUDGETS.load.engine the policies' first page under load between two raw runs. */
async function reportAndLoad(engine, server, cookies, { times, pinning, headers, tmpDir, log }) {
  log(`  ${engine}: a full year's sales report at ${times}×…`);
  let report;
  try {
    report = await requestReport({ server, admin: cookies.admin, tipo: 'cotacoes' });
  } catch (error) {
    report = { error: error.message };
  }
  log(
    `    ${report.error ?? `ready in ${report.seconds.toFixed(1)} s, ${report.rowsText} rows, peak RSS ${(report.peakRss / 2 ** 20).toFixed(0)} MB`}`,
  );
  if (engine !== SCALE_BUDGETS.load.engine) return { report };
  log(`  ${engine}: /v2/apolices under load at ${times}×, between two runs of a raw baseline…`);
  let raw;
  try {
    const rawTarget = { path: SCALE_BUDGETS.load.rawPath, cookie: cookies.admin, headers };
    raw = await startBaseline({ url: server.url, target: rawTarget, tmpDir: join(tmpDir, engine), pinning });
    const target = { name: `signed-in v2 policies at ${times}×`, path: '/v2/apolices', cookie: cookies.admin, headers };
    const { rows, rawRuns } = await measureAlternately({
      url: server.url,
      raw,
      pinning,
      targets: [target],
      connections: 10,
      duration: 10,
      warmup: 2,
    });
    return { report, load: { ...rows[0], raw: rawSummary(rawRuns) } };
  } catch (error) {
    return { report, load: { error: error.message } };
  } finally {
    await raw?.stop();
  }
}

/**
 * The routes whose address holds one of `parts` (`--routes segurado=,/v2/boleto`): a quick look at a
 * few pages, judged as in a whole run; all of them when `parts` is empty.
 */
export function selectRoutes(parts = []) {
  if (parts.length === 0) return SCALE_ROUTES;
  const routes = SCALE_ROUTES.filter((r) => parts.some((part) => (r.path ?? r.deepOf).includes(part)));
  if (routes.length === 0) throw new Error(`--routes ${parts.join(',')}: no scale route's address holds it.`);
  return routes;
}

/**
 * The scale phase: each engine in `engines` in turn (a PostgreSQL without its binaries is skipped and
 * said so). `headers`: what a browser sends with each request. `routes`: selectRoutes' (default all).
 */
export async function measureScale({
  times = DEFAULT_SCALE_TIMES,
  engines = SCALE_ENGINES,
  routes = SCALE_ROUTES,
  pinning,
  headers = {},
  log = console.error,
}) {
  const loadAverage = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ');
  const loadAtStart = loadAverage();
  const tmpDir = mkdtempSync(join(os.tmpdir(), 'portal-bench-scale-'));
  onCleanup(() => rmSync(tmpDir, { recursive: true, force: true }));
  const results = [];
  for (const engine of engines) results.push(await measureEngine(engine, { times, routes, pinning, headers, tmpDir, log }));
  rmSync(tmpDir, { recursive: true, force: true });
  return {
    times,
    date: new Date().toISOString(),
    loadAverage: { start: loadAtStart, end: loadAverage() },
    engines: results,
    budgets: SCALE_BUDGETS,
  };
}

const ENGINE_NAMES = { postgres: 'PostgreSQL', pglite: 'PGlite' };
const routeName = (r) => `\`${r.atK.path ?? r.at1.path}\` (${r.variant}, ${r.account})`;

/**
 * Every budget as a named pass/fail: nothing is judged unless K is SCALE_BUDGETS.judgedAt, except a
 * route that errors (a page must answer at any scale). A miss names the route, the figure and the limit.
 */
export function scaleChecks({ times, engines }) {
  const judged = times === SCALE_BUDGETS.judgedAt;
  const checks = [];
  for (const result of engines) {
    if (result.skipped) continue;
    const engine = ENGINE_NAMES[result.engine];
    const factor = result.engine === 'pglite' ? SCALE_BUDGETS.pgliteFactor : 1;
    for (const r of result.routes) {
      for (const [scale, figures] of [
        ['1×', r.at1],
        [`${times}×`, r.atK],
      ])
        if (figures.error) checks.push({ name: `${engine} ${scale} ${routeName(r)} ${figures.error}`, pass: false });
      if (!judged || r.atK.error || r.atK.skipped) continue;
      const budget = SCALE_BUDGETS.kinds[r.kind];
      const ms = (n) => `${n.toFixed(1)} ms`;
      const where = `${engine} ${times}× ${routeName(r)}`;
      checks.push({ name: `${where} p50 ${ms(r.atK.p50)} ≤ ${ms(budget.p50 * factor)}`, pass: r.atK.p50 <= budget.p50 * factor });
      if (budget.p99)
        checks.push({ name: `${where} p99 ${ms(r.atK.p99)} ≤ ${ms(budget.p99 * factor)}`, pass: r.atK.p99 <= budget.p99 * factor });
      if (budget.growth && r.pairs) {
        // Judged round by round (each round's K× against the 1× measured just before it), the verdict the median round's.
        const limitOf = (at1) => Math.max(budget.growth * factor * at1, at1 + budget.growthFloorMs);
        const judgedRounds = r.pairs.map((pair) => ({ ...pair, limit: limitOf(pair.at1) }));
        const middle = [...judgedRounds].sort((a, b) => a.atK / a.limit - b.atK / b.limit)[Math.floor((judgedRounds.length - 1) / 2)];
        const each = judgedRounds.map((x) => `${ms(x.atK)} / ${ms(x.limit)}`).join(', ');
        checks.push({
          name: `${where} p50 ${ms(middle.atK)} ≤ ${ms(middle.limit)} (max(${budget.growth * factor}× its 1× ${ms(middle.at1)}, 1× + ${budget.growthFloorMs} ms)), the median of ${judgedRounds.length} alternated rounds (${each}); growth ×${r.growth.toFixed(1)}`,
          pass: middle.atK <= middle.limit,
        });
      }
    }
    const { report } = result;
    if (!report) continue;
    if (report.error) checks.push({ name: `${engine} ${times}× full-year report: ${report.error}`, pass: false });
    else if (judged) {
      checks.push({
        name: `${engine} ${times}× full-year report ready in ${report.seconds.toFixed(1)} s ≤ ${SCALE_BUDGETS.report.seconds} s`,
        pass: report.seconds <= SCALE_BUDGETS.report.seconds,
      });
      const mb = (n) => `${(n / 2 ** 20).toFixed(0)} MB`;
      checks.push({
        name: `${engine} ${times}× full-year report server peak RSS ${mb(report.peakRss)} ≤ ${mb(SCALE_BUDGETS.report.rss)}`,
        pass: report.peakRss <= SCALE_BUDGETS.report.rss,
      });
    }
    const { load } = result;
    if (load?.error) checks.push({ name: `${engine} ${times}× \`/v2/apolices\` under load: ${load.error}`, pass: false });
    else if (load) {
      checks.push({
        name: `${engine} ${times}× \`/v2/apolices\` under load: ${load.total} requests, ${load.errors} errors, ${load.non2xx} non-2xx`,
        pass: load.total > 0 && load.errors === 0 && load.non2xx === 0,
      });
      checks.push({
        name: `${engine} ${times}× raw baseline beside it: ${load.raw.total} requests, ${load.raw.errors} errors, ${load.raw.non2xx} non-2xx`,
        pass: load.raw.total > 0 && load.raw.errors === 0 && load.raw.non2xx === 0,
      });
      if (judged) {
        const share = load.requestsPerSecond / load.rawRequestsPerSecond;
        const percent = (n) => `${(n * 100).toFixed(2)} %`;
        checks.push({
          name: `${engine} ${times}× \`/v2/apolices\` under load ${percent(share)} of raw (${Math.round(load.requestsPerSecond)} of ${Math.round(load.rawRequestsPerSecond)} req/s) ≥ ${percent(SCALE_BUDGETS.load.minShare)}`,
          pass: share >= SCALE_BUDGETS.load.minShare,
        });
      }
    }
  }
  return checks;
}

const table = (headings, rows) => [headings, headings.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
const cellMs = (f) =>
  f.error
    ? f.error
    : f.skipped
      ? '—'
      : `${f.p50 < 10 ? f.p50.toFixed(1) : Math.round(f.p50)} / ${f.p99 < 10 ? f.p99.toFixed(1) : Math.round(f.p99)}`;
const fmt = new Intl.NumberFormat('en-US');

/** The phase's markdown: settings, budgets, one table per engine, the report and load, and the misses. */
export function renderScale(result, checks) {
  const { times, engines, date, loadAverage } = result;
  const b = SCALE_BUDGETS;
  const judged = times === b.judgedAt;
  const sections = engines.map((r) => {
    const engine = ENGINE_NAMES[r.engine];
    if (r.skipped) return `#### ${engine}\n\nNot measured — ${r.skipped}.`;
    const counts = Object.entries(r.counts)
      .map(([t, c]) => `${t} ${fmt.format(c.before)} → ${fmt.format(c.after)}`)
      .join(', ');
    const rows = r.routes.map((x) => [
      `\`${x.at1.path}\`${x.atK.path && x.atK.path !== x.at1.path ? ` → \`${x.atK.path}\`` : ''}`,
      x.variant,
      x.kind,
      x.account,
      cellMs(x.at1),
      cellMs(x.atK),
      x.growth ? `×${x.growth.toFixed(1)}` : '—',
    ]);
    const report = !r.report
      ? 'not measured (a run of some routes)'
      : r.report.error
        ? `failed: ${r.report.error}`
        : `ready in ${r.report.seconds.toFixed(1)} s (${r.report.rowsText} rows), server peak RSS ${(r.report.peakRss / 2 ** 20).toFixed(0)} MB`;
    const load = r.load
      ? `\n- \`/v2/apolices\` first page under load (10 connections, 2 s warm-up + 10 s, as ADMIN): ${
          r.load.error ??
          `${Math.round(r.load.requestsPerSecond)} req/s, ${((r.load.requestsPerSecond / r.load.rawRequestsPerSecond) * 100).toFixed(2)} % of the raw baseline beside it (${fmt.format(Math.round(r.load.raw.min))}–${fmt.format(Math.round(r.load.raw.max))} req/s before and after), p50 ${r.load.p50.toFixed(1)} ms, p99 ${r.load.p99.toFixed(1)} ms, ${r.load.non2xx} non-2xx`
        }`
      : '';
    return `#### ${engine}

Grown ${times}× in ${r.growSeconds.toFixed(0)} s: ${counts}.

${table(['route', 'variant', 'kind', 'as', `1× p50 / p99 (ms)`, `${times}× p50 / p99 (ms)`, 'p50 growth'], rows)}

- A full year's sales report (quotes, CSV, asked for as ADMIN) at ${times}×: ${report}${load}`;
  });
  const failed = checks.filter((c) => !c.pass);
  const verdicts = judged
    ? failed.length === 0
      ? 'All scale budgets pass.'
      : `${failed.length} of ${checks.length} scale budgets missed:\n\n${failed.map((c) => `- **FAIL**: ${c.name}`).join('\n')}`
    : `Budgets are judged at ${b.judgedAt}× only; at ${times}× the figures are printed${failed.length ? `, and ${failed.length} route(s) failed to answer:\n\n${failed.map((c) => `- **FAIL**: ${c.name}`).join('\n')}` : '.'}`;
  return `${SCALE_START}
### Scale: 1× and ${times}× the demo year (issue 29)

Run ${date}${loadAverage ? ` (load average 1/5/15 min ${loadAverage.start} at start, ${loadAverage.end} at end: other work on the machine moves every figure)` : ''} by \`npm run bench\` (alone: \`npm run bench -- --only scale [--times K] [--engine postgres|pglite]\`,
\`scripts/bench/scale.mjs\`). Each engine gets a fresh database seeded by the portal's first start
(the demo year) and copied; the original is grown ${times}× by \`npm run scale\`; then a server on each,
side by side, and ${SCALE_ROUNDS} alternated rounds of every route at 1× then ${times}×. Per route and round: ${WARMUPS} warm-ups,
then p50 / p99 of ${SAMPLES} single signed-in requests one after the other; the table shows the median of the
rounds, and the growth is the median of the rounds' ${times}× p50 over the 1× p50 measured just before it. The
deep page is the last page the first page links to, or — a list past its count — a page read from a cursor past 1,000 rows.
Budgets (judged at ${b.judgedAt}×; PGlite within ${b.pgliteFactor}×): a page of records p50 ≤ ${b.kinds.records.p50} ms,
p99 ≤ ${b.kinds.records.p99} ms and p50 ≤ max(${b.kinds.records.growth}× its 1× p50, 1× + ${b.kinds.records.growthFloorMs} ms) in the median round (the floor keeps a
3 ms page from failing on noise); a name search p50 ≤ ${b.kinds.search.p50} ms and p99 ≤ ${b.kinds.search.p99} ms (it finds K
times the insureds at K×); metrics p50 ≤ ${b.kinds.metrics.p50} ms; a full year's report ready in
≤ ${b.report.seconds} s with the server's peak RSS ≤ ${b.report.rss / 2 ** 20} MB; \`/v2/apolices\` under load ≥ ${(b.load.minShare * 100).toFixed(1)} % of a raw Node server answering the bytes of
\`${b.load.rawPath}\` from memory, measured before and after it (the 1× page's goal in the main phase), on PostgreSQL.

${sections.join('\n\n')}

10,000× (about a million policies) is not part of the run: it was grown and measured once by hand,
and its figures and what breaks first there are in docs/decisions/065-pages-flat-at-scale.md.

${verdicts}
${SCALE_END}`;
}

export const SCALE_START = '<!-- scale phase: start (replaced in place by npm run bench) -->';
export const SCALE_END = '<!-- scale phase: end -->';

/** `document` with its scale section replaced by `section` (appended when it has none). */
export function withScaleSection(document, section) {
  const start = document.indexOf(SCALE_START);
  const end = document.indexOf(SCALE_END);
  if (start >= 0 && end > start) return `${document.slice(0, start)}${section}${document.slice(end + SCALE_END.length)}`;
  return `${document.trimEnd()}\n\n${section}\n`;
}
