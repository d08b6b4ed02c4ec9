// A 100,000-row sales report (issue 15, decision 042): how long the background job takes to write it,
// the server's memory while it does, and what a page of another user costs meanwhile.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { signIn, startPortal } from './server.mjs';

const ROWS = 100_000;
const POLL_MS = 500;
const TIMEOUT_MS = 10 * 60_000;
const ADMIN = { path: '/api/gateway/login', body: { userName: 'admin@seguradora.demo', password: 'Portal@2026' } };

// The server's days are Brasília's: a UTC day runs ahead of it from 21:00 there, and a period ending
// "tomorrow" is refused.
const day = (date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(date);

/**
 * Asks, as the insurer's admin (`admin`: its session cookie), for a CSV report of `tipo` over the last
 * year (364 days back to today) and polls the reports list until it is ready, reading the server's
 * resident memory at each poll: the seconds from asking to ready, the rows it says and the peak RSS.
 * Throws when it ends in error or takes over TIMEOUT_MS. The scale phase uses it at 1000×.
 */
export async function requestReport({ server, admin, tipo }) {
  const today = new Date();
  const asked = await fetch(`${server.url}/v2/relatorios/vendas/cadastro`, {
    method: 'POST',
    headers: { cookie: admin, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ de: day(new Date(today.getTime() - 364 * 86_400_000)), ate: day(today), tipo, formato: 'csv' }),
    redirect: 'manual',
  });
  await asked.arrayBuffer();
  const id = new URL(asked.headers.get('location') ?? '', server.url).searchParams.get('novo');
  if (asked.status !== 303 || !id) throw new Error(`Asking for the report answered ${asked.status}`);
  const started = performance.now();
  let peakRss = 0;
  let status = 'NA_FILA';
  let rowsText = '';
  while (status !== 'PRONTO' && status !== 'ERRO') {
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`The report did not finish within ${TIMEOUT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const list = await fetch(`${server.url}/v2/relatorios/vendas/consulta?atualizar=nao`, { headers: { cookie: admin } }).then((r) =>
      r.text(),
    );
    const card = list.slice(list.indexOf(`data-testid="relatorio-${id}"`));
    status = /data-status="(\w+)"/.exec(card)?.[1] ?? status;
    rowsText = /data-testid="linhas"[^>]*>([^<]*)</.exec(card)?.[1] ?? rowsText;
    peakRss = Math.max(peakRss, (await server.memory()).rss ?? 0);
  }
  const seconds = (performance.now() - started) / 1000;
  if (status === 'ERRO') throw new Error('The report ended in error');
  return { seconds, rowsText, peakRss };
}

/**
 * Copies the seed's first quote ROWS times (spread over the last 300 days) straight into the stopped
 * server's data dir, starts the server, asks for a CSV report of every quote of the last year as the
 * insurer's admin, and polls the list until it is ready, reading the server's memory as it goes.
 * While the job writes, `pagePath` is requested one at a time as `cookie`: its latency against the
 * same requests before the report says whether other users wait for it.
 */
export async function measureReportGeneration({ dataDir, pinning, pagePath, cookie }) {
  // Its quotes carry the name search's trigram index (migration 029): pg_trgm must be loaded to write them.
  const pg = new PGlite(dataDir, { extensions: { pg_trgm } });
  await pg.exec(`insert into quotes (nr_cotacao, simulator_code, line, generation, offer_id, user_id, company_id, point_of_sale_id,
      etapa, segurado, nome_segurado, documento_segurado, respostas, comissao_centesimos, premio_total, valida_ate, created_at, updated_at)
    select 'B' || g, q.simulator_code, q.line, q.generation, q.offer_id, q.user_id, q.company_id, q.point_of_sale_id, q.etapa,
      q.segurado, q.nome_segurado, q.documento_segurado, q.respostas, q.comissao_centesimos, 123456, q.valida_ate,
      now() - ((g % 300) || ' days')::interval, now()
    from generate_series(1, ${ROWS}) g, (select * from quotes order by id limit 1) q`);
  await pg.close();

  const server = await startPortal({ dataDir, pinning });
  try {
    const admin = await signIn(server.url, ADMIN);
    const page = async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}${pagePath}`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${pagePath} answered ${res.status}`);
      return performance.now() - started;
    };
    const before = [];
    for (let i = 0; i < 40; i++) before.push(await page());

    const during = [];
    let done = false;
    const pages = (async () => {
      while (!done) during.push(await page());
    })();
    let generated;
    try {
      generated = await requestReport({ server, admin, tipo: 'cotacoes' });
    } finally {
      done = true;
      await pages;
    }
    const { seconds, peakRss, rowsText: rows } = generated;
    const p = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))];
    return {
      rows: ROWS,
      seconds,
      rowsText: rows,
      peakRss,
      page: {
        path: pagePath,
        before: { p50: p(before, 0.5), p99: p(before, 0.99) },
        during: { p50: p(during, 0.5), p99: p(during, 0.99), count: during.length },
      },
    };
  } finally {
    await server.stop();
  }
}
