import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD } from '../fixtures/api';
import { hashLoad } from '../../src/server/auth/passwords';
import { nowMs, useManualClock } from '../../src/server/clock';
import { SESSION_IDLE_MS } from '../../src/server/services/identity/sessions';
import { TOKEN_MESSAGES } from '../../src/lib/session';

/**
 * Issue 11's attacks on signing in, each replayed against the API: a burst of parallel guesses, a
 * stranger locking an account, an office behind one NAT, hashing floods, timing, the simulator token
 * after its session, and a sign-in that leaves the replaced session alive.
 */
let db: DB;
let close: () => Promise<void>;

beforeAll(async () => ({ db, close } = await freshDatabase()));
afterAll(() => close());
afterEach(async () => {
  await db.deleteFrom('rate_limits').execute();
  await db.deleteFrom('throttles').execute();
});

const from = (ip: string) => apiClient(db, { ip });
const gatewayLogin = (ip: string, userName: string, password: string, headers?: Record<string, string>) =>
  from(ip)('POST', '/api/gateway/login', { body: { userName, password }, headers });
/** How many answers had each status: { 401: 5, 429: 55 }. */
function statuses(answers: { status: number }[]): Record<number, number> {
  const count: Record<number, number> = {};
  for (const { status } of answers) count[status] = (count[status] ?? 0) + 1;
  return count;
}

describe('guessing passwords', () => {
  it('60 parallel wrong passwords for one account from one address: only 5 are checked, the rest get 429', async () => {
    const started = hashLoad().started;
    const answers = await Promise.all(Array.from({ length: 60 }, () => gatewayLogin('10.20.0.1', 'parceiro@parceiro.demo', 'Errada@123')));
    expect(statuses(answers)).toEqual({ 401: 5, 429: 55 });
    expect(hashLoad().started - started).toBe(5);
  });

  it("a stranger's failures never refuse the owner's right password from another address", async () => {
    const clock = useManualClock();
    try {
      for (let i = 0; i < 8; i++) await gatewayLogin('10.20.0.66', 'parceiro.admin@parceiro.demo', 'Errada@123');
      // The stranger's own address is limited…
      expect((await gatewayLogin('10.20.0.66', 'parceiro.admin@parceiro.demo', DEMO_PASSWORD)).status).toBe(429);
      // …the owner elsewhere is not, at once or a minute later.
      expect((await gatewayLogin('10.20.0.7', 'parceiro.admin@parceiro.demo', DEMO_PASSWORD)).status).toBe(200);
      clock.advance(60_000);
      expect((await gatewayLogin('10.20.0.8', 'parceiro.admin@parceiro.demo', DEMO_PASSWORD)).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('failures from many addresses space the next attempts on the account apart, growing, without a lock', async () => {
    const clock = useManualClock();
    try {
      for (let i = 0; i < 5; i++)
        expect((await gatewayLogin(`10.30.0.${i}`, 'substabelecido@parceiro.demo', 'Errada@123')).status).toBe(401);
      // Past the free attempts each waits for its slot (the manual clock moves by the wait): 0 s, 1 s, then 2 s.
      const waited = async (ip: string, password: string) => {
        const before = nowMs();
        const { status } = await gatewayLogin(ip, 'substabelecido@parceiro.demo', password);
        return { status, seconds: (nowMs() - before) / 1000 };
      };
      expect(await waited('10.30.1.1', 'Errada@123')).toEqual({ status: 401, seconds: 0 });
      expect(await waited('10.30.1.2', 'Errada@123')).toEqual({ status: 401, seconds: 1 });
      // The owner waits for the next slot and is let in: throttled, never locked.
      expect(await waited('10.30.1.3', DEMO_PASSWORD)).toEqual({ status: 200, seconds: 2 });
      // The owner's success gave back only its own attempt: a guesser still waits (4 s), no free tries handed out.
      expect(await waited('10.30.1.4', 'Errada@123')).toEqual({ status: 401, seconds: 4 });
    } finally {
      clock.restore();
    }
  });

  it('a guesser spread over many addresses never refuses the owner where they signed in before, and a refusal costs the owner nothing', async () => {
    const clock = useManualClock();
    const owner = 'parceiro.admin@parceiro.demo';
    try {
      expect((await gatewayLogin('10.91.0.1', owner, DEMO_PASSWORD)).status).toBe(200); // the owner's office, known from now on
      // The guesser, one address per attempt, each when its slot opens: 5 free failures, then slots
      // growing up to 30 s apart; the last leaves the next slot 30 s away.
      for (let i = 0; i < 11; i++) {
        if (i > 0) clock.advance(30_000);
        expect((await gatewayLogin(`10.92.0.${i}`, owner, 'Errada@123')).status).toBe(401);
      }
      // The next slot is now far away: a new address of the owner's is refused, with the time to wait…
      const refused = await gatewayLogin('10.91.0.2', owner, DEMO_PASSWORD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      // …but the office signs in at once.
      const before = nowMs();
      expect((await gatewayLogin('10.91.0.1', owner, DEMO_PASSWORD)).status).toBe(200);
      expect(nowMs() - before).toBe(0);
      // Retrying from the new address while refused checked nothing, so it uses up nothing of its own limit.
      for (let i = 0; i < 8; i++) expect((await gatewayLogin('10.91.0.2', owner, DEMO_PASSWORD)).status).toBe(429);
      clock.advance(30_000);
      expect((await gatewayLogin('10.91.0.2', owner, DEMO_PASSWORD)).status).toBe(200);
    } finally {
      clock.restore();
    }
  }, 60_000);

  it('a burst on a throttled account takes successive slots; past the longest wait it is refused with the time to wait', async () => {
    for (let i = 0; i < 5; i++) await gatewayLogin(`10.40.0.${i}`, 'parceiro@parceiro.demo', 'Errada@123');
    // Slots now, +1 s and +3 s; the fourth would start 7 s away, beyond the 5 s anyone waits.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => gatewayLogin(`10.40.1.${i}`, 'parceiro@parceiro.demo', 'Errada@123')),
    );
    expect(statuses(answers)).toEqual({ 401: 3, 429: 3 });
    for (const answer of answers.filter((a) => a.status === 429)) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refusals took no slot: 8 attempts counted, the next slot 7 s after the burst.
    const row = await db
      .selectFrom('throttles')
      .selectAll()
      .where('key', '=', 'login-conta:parceiro@parceiro.demo')
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(8);
  }, 20_000);

  it('30 failures from one office address across accounts still let a colleague sign in', async () => {
    const clock = useManualClock();
    try {
      for (let batch = 0; batch < 3; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => gatewayLogin('10.50.0.1', `colega${batch * 10 + i}@parceiro.demo`, 'Errada@123')),
        );
      }
      expect((await gatewayLogin('10.50.0.1', 'parceiro@parceiro.demo', DEMO_PASSWORD)).status).toBe(200);
      expect(
        (
          await from('10.50.0.1')('POST', '/api/plataforma/v1/login', {
            body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD },
          })
        ).status,
      ).toBe(200);
    } finally {
      clock.restore();
    }
  }, 120_000); // 32 real hashes: seconds each on a busy machine
});

describe('what signing in tells', () => {
  it('checks a password against a hash whether or not the account exists (timing tells nothing)', async () => {
    // The stand-in hash is made once, by the first unknown account.
    expect((await gatewayLogin('10.60.0.1', 'aquecimento@exemplo.com.br', 'Errada@123')).status).toBe(404);
    for (const userName of ['ninguem@exemplo.com.br', 'parceiro@parceiro.demo']) {
      const started = hashLoad().started;
      await gatewayLogin('10.60.0.1', userName, 'Errada@123');
      expect(hashLoad().started - started, userName).toBe(1);
    }
  });

  it('tells a user whose first access is pending to finish it, not "wrong password"', async () => {
    const answer = await gatewayLogin('10.60.0.2', 'novo.parceiro@parceiro.demo', DEMO_PASSWORD);
    expect(answer.status).toBe(403);
    expect(answer.json.message).toMatch(/primeiro acesso ainda não foi concluído/);
    expect(answer.json.message).toContain('Reenviar código de validação - 1º acesso');
  });
});

describe('hashing floods', () => {
  it('60 parallel resets with made-up links are refused before any hash', async () => {
    const started = hashLoad().started;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        from(`10.70.0.${i}`)('POST', '/api/bff/v1/senha/redefinir', {
          body: { token: `inventado-${String(i).padStart(16, '0')}`, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 410: 60 });
    expect(hashLoad().started - started).toBe(0);
  });

  it('resets are limited per address (429), counted before the link is even looked up', async () => {
    const answers = [];
    for (let i = 0; i < 22; i++) {
      answers.push(
        await from('10.70.1.1')('POST', '/api/bff/v1/senha/redefinir', {
          body: { token: `inventado-${String(i).padStart(16, '0')}`, senha: 'Nova@Senha1', confirmacao: 'Nova@Senha1' },
        }),
      );
    }
    expect(statuses(answers)).toEqual({ 410: 20, 429: 2 });
  });
});

describe('sessions', () => {
  it('the simulator token ends when its v2 session idles out, and the refusal clears both cookies', async () => {
    const clock = useManualClock();
    try {
      const login = await gatewayLogin('10.80.0.1', 'parceiro@parceiro.demo', DEMO_PASSWORD, { 'x-portal-session': 'cookie' });
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const history = () =>
        from('10.80.0.1')('GET', '/api/bff/v1/cotacoes', {
          headers: { cookie: cookie.split('; ').find((c) => c.startsWith('tokenSimulador='))! },
        });
      expect((await history()).status).toBe(200);
      // Using the child keeps the parent awake…
      clock.advance(SESSION_IDLE_MS - 60_000);
      expect((await history()).status).toBe(200);
      clock.advance(SESSION_IDLE_MS - 60_000);
      expect((await from('10.80.0.1')('GET', '/api/bff/v1/usuario', { headers: { cookie } })).status).toBe(200);
      // …but once the v2 session idles out, the simulator token alone reads nothing.
      clock.advance(SESSION_IDLE_MS + 1_000);
      const refused = await history();
      expect(refused).toMatchObject({ status: 401, json: { message: TOKEN_MESSAGES.expired } });
      const cleared = refused.headers
        .getSetCookie()
        .map((c) => c.split('=')[0])
        .sort();
      expect(cleared).toEqual(['tokenSimulador', 'tokenV2']);
    } finally {
      clock.restore();
    }
  });

  it('signing in again revokes the session it replaces', async () => {
    const first = await gatewayLogin('10.80.0.2', 'parceiro@parceiro.demo', DEMO_PASSWORD, { 'x-portal-session': 'cookie' });
    const firstCookie = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const second = await gatewayLogin('10.80.0.2', 'parceiro@parceiro.demo', DEMO_PASSWORD, {
      'x-portal-session': 'cookie',
      cookie: firstCookie,
    });
    expect(second.status).toBe(200);
    for (const token of firstCookie.split('; ')) {
      expect((await from('10.80.0.2')('GET', '/api/bff/v1/cotacoes', { headers: { cookie: token } })).status, token.split('=')[0]).toBe(
        401,
      );
    }
    const secondCookie = second.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await from('10.80.0.2')('GET', '/api/bff/v1/usuario', { headers: { cookie: secondCookie } })).status).toBe(200);

    const legacy = await from('10.80.0.2')('POST', '/api/plataforma/v1/login', {
      body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD },
      headers: { 'x-portal-session': 'cookie' },
    });
    const legacyCookie = legacy.headers.getSetCookie()[0]!.split(';')[0]!;
    await from('10.80.0.2')('POST', '/api/plataforma/v1/login', {
      body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD },
      headers: { 'x-portal-session': 'cookie', cookie: legacyCookie },
    });
    expect((await from('10.80.0.2')('GET', '/api/plataforma/v1/simuladores', { headers: { cookie: legacyCookie } })).status).toBe(401);
  });
});
