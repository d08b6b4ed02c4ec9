// Documents uploaded while another user works (issue 27, decision 057): what a page of another user
// costs while one seller fires many parallel 10 MB uploads at one proposal, and while several sellers
// upload within their limits. Run alone (`node scripts/bench/uploads.mjs`, after `npm run build`) it
// starts its own portal on a fresh data directory; `npm run bench` calls it on the seeded one.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { cpuPinning, signIn, startPortal } from './server.mjs';

const MB = 1024 * 1024;
const PASSWORD = 'Portal@2026';
const PAGE_SAMPLES_BEFORE = 40;
const v2Account = (email) => ({ path: '/api/gateway/login', body: { userName: email, password: PASSWORD } });

/** A distinct `size`-byte "PDF": the magic bytes the content check reads, then noise (nothing deduplicates). */
const fakePdf = (size) => {
  const bytes = randomBytes(size);
  bytes.write('%PDF-1.4\n', 0, 'latin1');
  return bytes;
};

const percentile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))] ?? NaN;

/**
 * Sellers of the demo and, for each, a proposal of theirs (v2), read from the stopped server's data
 * dir; the page's own user (parceiro@parceiro.demo) is left out.
 */
async function uploaders(dataDir, count) {
  const pg = new PGlite(dataDir);
  try {
    const { rows } = await pg.query(
      `select distinct on (u.id) u.email, p.nr_proposta from proposals p join quotes q on q.id = p.quote_id join users u on u.id = q.user_id
        where q.generation = 'v2' and u.email <> 'parceiro@parceiro.demo' and u.email like '%@parceiro.demo'
        order by u.id, p.id desc limit ${count}`,
    );
    return rows.map((r) => ({ email: r.email, nrProposta: r.nr_proposta }));
  } finally {
    await pg.close();
  }
}

/** Runs the portal on `dataDir` (seeded, stopped) and measures both scenes. */
export async function measureUploadPressure({ dataDir, pinning, pagePath, cookie, parallel = 60, size = 10 * MB }) {
  const sellers = await uploaders(dataDir, 3);
  if (sellers.length === 0) throw new Error('No v2 seller with a proposal in the demo data');
  const server = await startPortal({ dataDir, pinning });
  try {
    const pageCookie = cookie ?? (await signIn(server.url, v2Account('parceiro@parceiro.demo')));
    const page = async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}${pagePath}`, { headers: { cookie: pageCookie }, signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${pagePath} answered ${res.status}`);
      return performance.now() - started;
    };
    for (const seller of sellers) seller.cookie = await signIn(server.url, v2Account(seller.email));
    const upload = async (seller) => {
      try {
        const res = await fetch(`${server.url}/api/bff/v1/propostas/${seller.nrProposta}/documentos?categoria=OUTRO`, {
          method: 'POST',
          headers: {
            cookie: seller.cookie,
            origin: server.url,
            'x-portal-session': 'cookie',
            'content-type': 'application/octet-stream',
            'x-nome-arquivo': 'bench.pdf',
          },
          body: fakePdf(size),
          signal: AbortSignal.timeout(120_000),
        });
        await res.arrayBuffer();
        return res.status;
      } catch (error) {
        return error.cause?.code ?? error.name ?? 'error';
      }
    };
    // While `work` runs, the page is asked one request at a time.
    const whilst = async (work) => {
      const during = [];
      let done = false;
      const pages = (async () => {
        while (!done) during.push(await page());
      })();
      const started = performance.now();
      const statuses = await work();
      const seconds = (performance.now() - started) / 1000;
      done = true;
      await pages;
      const counts = {};
      for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
      return { seconds, statuses: counts, page: { p50: percentile(during, 0.5), p99: percentile(during, 0.99), count: during.length } };
    };

    const before = [];
    for (let i = 0; i < PAGE_SAMPLES_BEFORE; i++) before.push(await page());

    // One seller, `parallel` uploads at once to one proposal (the attack issue 27 reports).
    const burst = await whilst(() => Promise.all(Array.from({ length: parallel }, () => upload(sellers[0]))));
    // Sellers each sending two files at a time, six files each: work a quota lets through.
    const steady = await whilst(() =>
      Promise.all(
        sellers.slice(1).flatMap((seller) =>
          [0, 1].map(async () => {
            const statuses = [];
            for (let i = 0; i < 3; i++) statuses.push(await upload(seller));
            return statuses;
          }),
        ),
      ).then((lists) => lists.flat()),
    );
    return {
      pagePath,
      size,
      parallel,
      before: { p50: percentile(before, 0.5), p99: percentile(before, 0.99) },
      burst,
      steady: { ...steady, sellers: sellers.length - 1 },
    };
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'portal-uploads-bench-'));
  const dataDir = join(tmp, 'data');
  try {
    const pinning = cpuPinning();
    // A first start migrates and seeds the data dir; the measurement runs on a restart, as production does.
    const first = await startPortal({ dataDir, pinning });
    await signIn(first.url, v2Account('parceiro@parceiro.demo'));
    await first.stop();
    const result = await measureUploadPressure({ dataDir, pinning, pagePath: '/v2/apolices' });
    console.log(JSON.stringify({ loadAverage: os.loadavg().map((n) => n.toFixed(2)).join(' / '), ...result }, null, 2));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
