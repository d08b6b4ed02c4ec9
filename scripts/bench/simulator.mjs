// The simulator URLs the benchmark visits hold numbers the seed and the offers decide (the offer that
// starts a residential quote, the demo quote stopped at planos), so we ask the running portal for them
// rather than hard-coding numbers a new seed would break.

const TIMEOUT_MS = 10_000;

/**
 * @param {string} url the portal's base URL
 * @param {string} cookie a signed-in partner's Cookie header (v2 and simulator tokens)
 * @returns {Promise<{residentialStart: string, residentialPlanos: string, policyPdf: string}>} paths on the portal
 */
export async function simulatorPaths(url, cookie) {
  return {
    residentialStart: await redirectTarget(url, '/v2/home/res', cookie),
    residentialPlanos: await quoteStopped(url, cookie, 'RES', 'planos'),
    policyPdf: await firstPolicyPdf(url, cookie),
  };
}

/** The PDF of the newest policy the partner's Apólices page lists (the seed issues several). */
async function firstPolicyPdf(url, cookie) {
  const res = await fetch(`${url}/v2/apolices`, { headers: { cookie }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const nrApolice = /href="\/v2\/apolices\/(\d+)"/.exec(await res.text())?.[1];
  if (res.status !== 200 || !nrApolice) throw new Error(`GET /v2/apolices answered ${res.status} without a policy: has the seed changed?`);
  return `/v2/relatorios/pdf/apolice/apolice/${nrApolice}`;
}

/** Where `/v2/home/{code}` sends a partner with one offer in force: the start of its cadastro. */
async function redirectTarget(url, path, cookie) {
  const res = await fetch(`${url}${path}`, { headers: { cookie }, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  await res.arrayBuffer();
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) throw new Error(`${path} answered ${res.status} instead of a 303 to a simulator start`);
  return new URL(location, url).pathname;
}

/** The edit route of a quote of `code` that stands at `step` (the seed leaves one for the partner). */
async function quoteStopped(url, cookie, code, step) {
  const path = `/api/bff/v1/cotacoes?simulador=${code}`;
  const res = await fetch(`${url}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  const { dado } = await res.json();
  const quote = dado.content.find(({ href }) => href.includes(`/${step}/`) && href.endsWith('/editar'));
  if (!quote) throw new Error(`GET ${path} lists no open ${code} quote at ${step}: has the seed changed?`);
  return quote.href;
}
