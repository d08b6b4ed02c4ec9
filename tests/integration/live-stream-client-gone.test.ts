import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, startInstance, stopInstance, type Instance } from '../fixtures/instances';

/**
 * Issue 42 item 11: a live worklist stream whose browser went away (its tab or context closed, its
 * connection cut) is ended by the server at once — through the built server as production runs it
 * (compression, the viewer memo and the shared pages in front of Astro). With two places per instance,
 * two streams whose clients vanished would keep the next two out (429) if the server still held them.
 */
const PARTNER = 'parceiro@parceiro.demo';

let portal: Instance;
beforeAll(async () => {
  ensureBuilt();
  portal = await startInstance('streams', await freePort(), { LIVE_MAX_PER_INSTANCE: '2' });
}, 240_000);
afterAll(() => portal && stopInstance(portal), 60_000);

async function signIn(): Promise<string> {
  const response = await fetch(`${portal.base}/api/gateway/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: PARTNER, password: 'Portal@2026' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** A stream as a browser opens it, on a socket of its own; resolves with its status and, on a 200, its first event. */
function openStream(token: string): Promise<{ status: number; first?: string; socket: import('node:net').Socket }> {
  return new Promise((done, fail) => {
    const request = http.get(`${portal.base}/api/bff/v1/pendencias/eventos`, { headers: { authtoken: token }, agent: false });
    request.once('error', fail);
    request.once('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return done({ status: response.statusCode ?? 0, socket: request.socket! });
      }
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const data = /^data: .*$/m.exec(text);
        if (data) done({ status: 200, first: data[0], socket: request.socket! });
      });
    });
  });
}

describe('a live worklist stream whose client went away', () => {
  it('gives its place back at once: two vanished clients do not keep the next two out', async () => {
    const token = await signIn();
    const gone = [await openStream(token), await openStream(token)];
    expect(gone.map((s) => s.status)).toEqual([200, 200]);
    expect(gone[0]!.first).toMatch(/^data: \{"novos":\d+\}$/);
    // Full: a third is refused.
    const third = await openStream(token);
    expect(third.status).toBe(429);
    // The two clients vanish without a word (a closed tab, a cut network).
    for (const stream of gone) stream.socket.destroy();
    let next: Awaited<ReturnType<typeof openStream>>[] = [];
    const until = Date.now() + 3_000;
    do {
      for (const stream of next) stream.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      next = [await openStream(token), await openStream(token)];
    } while (next.some((s) => s.status !== 200) && Date.now() < until);
    expect(next.map((s) => s.status)).toEqual([200, 200]);
    for (const stream of next) stream.socket.destroy();
  });
});
