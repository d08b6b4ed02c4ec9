import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, signInApi, tokenOf } from '../fixtures/api';

/** Issue 32: every user sees their open sessions (device, place, last use) and ends one or all the others. */

let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
});
afterAll(() => close());

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

const signIn = async (email: string, userAgent: string) => ({
  authtoken: tokenOf((await signInApi(call, email, undefined, { 'user-agent': userAgent })).json),
});

describe.each([
  ['bff', 'parceiro@parceiro.demo', '/api/bff/v1/usuario'],
  ['plataforma', 'vendedor@legado.demo', '/api/plataforma/v1/simuladores'],
] as const)('%s: own sessions', (base, email, probe) => {
  it('lists both sessions with device and place, ends the other one, then all the others', async () => {
    const desktop = await signIn(email, DESKTOP);
    const phone = await signIn(email, PHONE);
    const third = await signIn(email, PHONE);
    const { json } = await call('GET', `/api/${base}/v1/sessoes`, { headers: desktop });
    const sessions = (json.dado ?? json.resultado).sessoes as { id: number; dispositivo: string; ip: string; atual: boolean }[];
    // The one asking first, though the others were used later (issue 42); then the newest first.
    expect(sessions.map((s) => [s.dispositivo, s.atual])).toEqual([
      ['Chrome no Windows', true],
      ['Safari no iPhone', false],
      ['Safari no iPhone', false],
    ]);
    expect(sessions[0]!.ip).toBe('10.0.0.1');

    // Ending the phone's: its next request is refused, the others go on.
    const phoneId = sessions[2]!.id;
    expect((await call('DELETE', `/api/${base}/v1/sessoes/${phoneId}`, { headers: desktop })).status).toBe(200);
    expect((await call('GET', probe, { headers: phone })).status).toBe(401);
    expect((await call('GET', probe, { headers: third })).status).toBe(200);
    // Already ended, or never one of this user's: the same 404.
    expect((await call('DELETE', `/api/${base}/v1/sessoes/${phoneId}`, { headers: desktop })).status).toBe(404);
    expect((await call('DELETE', `/api/${base}/v1/sessoes/999999`, { headers: desktop })).status).toBe(404);
    expect((await call('DELETE', `/api/${base}/v1/sessoes/abc`, { headers: desktop })).status).toBe(400);

    expect((await call('POST', `/api/${base}/v1/sessoes/encerrar-outras`, { headers: desktop })).status).toBe(200);
    expect((await call('GET', probe, { headers: third })).status).toBe(401);
    expect((await call('GET', probe, { headers: desktop })).status).toBe(200);
    const left = await call('GET', `/api/${base}/v1/sessoes`, { headers: desktop });
    expect((left.json.dado ?? left.json.resultado).sessoes).toHaveLength(1);

    const logged = await db
      .selectFrom('access_events')
      .select('event')
      .where('email', '=', email)
      .where('event', 'like', 'SESS%')
      .execute();
    expect(logged.map((r) => r.event).sort()).toEqual(['SESSAO_ENCERRADA', 'SESSOES_ENCERRADAS']);
  });

  it("cannot end another user's session", async () => {
    const mine = await signIn(email, DESKTOP);
    const other = await signIn('juliana.costa@parceiro.demo', DESKTOP);
    const { json } = await call('GET', '/api/bff/v1/sessoes', { headers: other });
    const otherId = json.dado.sessoes[0].id;
    expect((await call('DELETE', `/api/${base}/v1/sessoes/${otherId}`, { headers: mine })).status).toBe(404);
    expect((await call('GET', '/api/bff/v1/usuario', { headers: other })).status).toBe(200);
  });
});
