import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressWhole, preferredEncoding } from '../../scripts/compress-whole.mjs';
import { rawRequest } from '../fixtures/raw-http';

/**
 * Issue 12: pages and API answers are compressed whole, once (scripts/compress-whole.mjs), here in
 * front of a stand-in that answers as Astro's adapter does — headers to writeHead, body in chunks.
 */
let server: http.Server;
let base: string;

const LONG_HTML = `<p>${'Portal de Parceiros — seguro residencial. '.repeat(100)}</p>`;
const ANSWERS: Record<string, { status: number; type: string; chunks: string[]; headers?: Record<string, string> }> = {
  '/pagina': { status: 200, type: 'text/html; charset=utf-8', chunks: [LONG_HTML.slice(0, 1000), LONG_HTML.slice(1000)] },
  '/api': {
    status: 400,
    type: 'application/json',
    chunks: [JSON.stringify({ message: 'Dados inválidos', itens: Array(300).fill('campo') })],
  },
  '/curta': { status: 200, type: 'text/html', chunks: ['<p>oi</p>'] },
  '/script': { status: 200, type: 'text/javascript', chunks: [LONG_HTML] },
  '/codificada': { status: 200, type: 'text/html', chunks: [LONG_HTML], headers: { 'content-encoding': 'identity' } },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    compressWhole(req, res);
    const answer = ANSWERS[req.url ?? '']!;
    res.writeHead(answer.status, { 'content-type': answer.type, vary: 'Cookie', ...answer.headers });
    for (const chunk of answer.chunks.slice(0, -1)) res.write(chunk);
    res.end(answer.chunks.at(-1));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(`${base}${path}`, headers, method);

describe('compressing pages and API answers whole', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
  ])('Accept-Encoding %j → %s', (header, encoding) => expect(preferredEncoding(header)).toBe(encoding));

  it('sends a page compressed as the browser prefers, with its length, the status and the headers it had', async () => {
    const br = await get('/pagina', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.raw.length);
    expect(br.headers['transfer-encoding']).toBeUndefined();
    expect(br.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(brotliDecompressSync(br.raw).toString()).toBe(LONG_HTML);
    expect(br.raw.length).toBeLessThan(LONG_HTML.length / 10);
    const gzip = await get('/pagina', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.raw).toString()).toBe(LONG_HTML);
    const api = await get('/api', { 'accept-encoding': 'br' });
    expect(api.status).toBe(400);
    expect(JSON.parse(brotliDecompressSync(api.raw).toString())).toMatchObject({ message: 'Dados inválidos' });
  });

  it('leaves alone a client that takes no compression, a HEAD, a short body, other types and encoded bodies', async () => {
    const plain = await get('/pagina');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.toString()).toBe(LONG_HTML);
    const head = await get('/pagina', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
    const short = await get('/curta', { 'accept-encoding': 'br' });
    expect(short.headers['content-encoding']).toBeUndefined();
    expect(short.raw.toString()).toBe('<p>oi</p>');
    expect(short.headers['content-length']).toBe('9');
    expect((await get('/script', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get('/codificada', { 'accept-encoding': 'br' })).raw.toString()).toBe(LONG_HTML);
  });
});
