// Documents uploaded while another user works (issue 27, decision 057): what a page of another user
// costs while one seller fires many parallel 10 MB uploads at one proposal, and while two sellers upload
// within their limits. Run alone (`node scripts/bench/uploads.mjs`, after `npm run build`) it starts its
// own portal on a fresh data directory; `npm run bench` calls it on the seeded one.
//
// The uploads are sent from a worker thread: pushing 600 MB through sockets keeps an event loop busy,
// and the page requests timed on that same loop would be charged for it — the server would look
// slower than it is.
import { randomFill } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { cpuPinning, signIn, startPortal } from './server.mjs';

const MB = 1024 * 1024;
const PASSWORD = 'Portal@2026';
const PAGE_SAMPLES_BEFORE = 40;
const v2Account = (email) => ({ path: '/api/gateway/login', body: { userName: email, password: PASSWORD } });
const percentile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))] ?? Number.NaN;

/** The worker: sends the uploads it is told to and answers their statuses (or the socket error a client saw). */
async function uploadWorker({ url, size }) {
  const fill = promisify(randomFill);
  // A distinct "PDF" each: the magic bytes the content check reads, then noise (nothing deduplicates).
  const fakePdf = async () => {
    const bytes = await fill(Buffer.allocUnsafe(size));
    bytes.write('%PDF-1.4\n', 0, 'latin1');
    return bytes;
  };
  const upload = async (seller, body) => {
    try {
      const res = await fetch(`${url}/api/bff/v1/propostas/${seller.nrProposta}/documentos?categoria=OUTRO`, {
        method: 'POST',
        headers: {
          cookie: seller.cookie,
          origin: url,
          'x-portal-session': 'cookie',
          'content-type': 'application/octet-stream',
          'x-nome-arquivo': 'bench.pdf',
        },
        body,
        signal: AbortSignal.timeout(120_000),
      });
      await res.arrayBuffer();
      return res.status;
    } catch (error) {
      return error.cause?.code ?? error.name ?? 'error';
    }
  };
  parentPort.on('message', async ({ scene, sellers, parallel }) => {
    if (scene === 'burst') {
      // Drawn before the clock starts, so the burst is only the sending.
      const bodies = await Promise.all(Array.from({ length: parallel }, fakePdf));
      parentPort.postMessage({ ready: true });
      parentPort.postMessage({ statuses: await Promise.all(bodies.map((body) => upload(sellers[0], body))) });
    } else {
      parentPort.postMessage({ ready: true });
      const lanes = sellers.flatMap((seller) =>
        [0, 1].map(async () => {
          const statuses = [];
          for (let i = 0; i < 3; i++) statuses.push(await upload(seller, await fakePdf()));
          return statuses;
        }),
      );
      parentPort.postMessage({ statuses: (await Promise.all(lanes)).flat() });
    }
  });
}

/**
 * Sellers of the demo and, for each, a proposal of theirs (v2), read from the stopped server's data
 * dir; the page's own user (parceiro@parceiro.demo) is left out.
 */
async function uploaders(dataDir, count) {
  const pg = new PGlite(dataDir, { extensions: { pg_trgm } });
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
  if (sellers.length < 3) throw new Error('Fewer than three v2 sellers with a proposal in the demo data');
  const server = await startPortal({ dataDir, pinning });
  const worker = new Worker(new URL(import.meta.url), { workerData: { url: server.url, size } });
  try {
    const pageCookie = cookie ?? (await signIn(server.url, v2Account('parceiro@parceiro.demo')));
    const get = () => fetch(`${server.url}${pagePath}`, { headers: { cookie: pageCookie }, signal: AbortSignal.timeout(60_000) });
    const page = async () => {
      const started = performance.now();
      // A kept-alive connection the server closed just as it was reused: a browser sends the GET again, so do we.
      const res = await get().catch((error) => (error.cause?.code === 'UND_ERR_SOCKET' ? get() : Promise.reject(error)));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${pagePath} answered ${res.status}`);
      return performance.now() - started;
    };
    for (const seller of sellers) seller.cookie = await signIn(server.url, v2Account(seller.email));
    // One scene in the worker while the page is asked here, one request at a time.
    const scene = async (name, who) => {
      const ready = new Promise((done) => worker.once('message', done));
      worker.postMessage({ scene: name, sellers: who, parallel });
      await ready;
      const finished = new Promise((done) => worker.once('message', done));
      const during = [];
      let done = false;
      const started = performance.now();
      const pages = (async () => {
        while (!done) during.push(await page());
      })();
      const { statuses } = await finished;
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
    const burst = await scene('burst', sellers.slice(0, 1));
    // Two sellers each sending two files at a time, three after another: work a quota lets through.
    const steady = await scene('steady', sellers.slice(1));
    return {
      pagePath,
      size,
      parallel,
      before: { p50: percentile(before, 0.5), p99: percentile(before, 0.99) },
      burst,
      steady: { ...steady, sellers: sellers.length - 1 },
    };
  } finally {
    await worker.terminate();
    await server.stop();
  }
}

if (!isMainThread) await uploadWorker(workerData);
else if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const tmp = mkdtempSync(join(os.tmpdir(), 'portal-uploads-bench-'));
  const dataDir = join(tmp, 'data');
  try {
    const pinning = cpuPinning();
    // A first start migrates and seeds the data dir; the measurement runs on a restart, as production does.
    const first = await startPortal({ dataDir, pinning });
    await signIn(first.url, v2Account('parceiro@parceiro.demo'));
    await first.stop();
    const result = await measureUploadPressure({ dataDir, pinning, pagePath: '/v2/apolices' });
    console.log(
      JSON.stringify(
        {
          loadAverage: os
            .loadavg()
            .map((n) => n.toFixed(2))
            .join(' / '),
          ...result,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
