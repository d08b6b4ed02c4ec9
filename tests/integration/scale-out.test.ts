import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DB } from '../../src/server/db';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { hashPassword } from '../../src/server/auth/passwords';
import { hashToken } from '../../src/server/auth/tokens';
import { TOKEN_COOKIES } from '../../src/lib/session';
import { MINIMAL_PDF } from '../fixtures/documents';
import { emptyServerDatabase } from '../fixtures/db';
import { nextTotpStep, totpCode } from '../fixtures/second-factor';
import { fakeSmtpServer } from '../fixtures/smtp';
import { startS3 } from '../fixtures/s3';
import { ensureBuilt, freePort, NGINX, startBalancer, startInstance, stopInstance, type Instance } from '../fixtures/instances';

/**
 * Issue 30: two instances of the built portal over one PostgreSQL and one object store, as
 * production runs them (DESIGN §11). What one instance does, the other knows at its next request —
 * sessions, sign-out, deactivation, a permission change even where the viewer memo answers, the
 * sign-in limit —; a job's work and an e-mail happen once; a file written by one is read whole
 * through the other; and a rolling restart behind the load balancer fails no request.
 * Only on PostgreSQL (PGlite is one process's database): CI's second run.
 */
const SERVER_URL = process.env.DATABASE_URL;
const PASSWORD = 'Portal@2026';
const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const HORIZONTE = '11222333000181';

let db: DB;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let s3: Awaited<ReturnType<typeof startS3>>;
let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
let env: Record<string, string>;
let a: Instance;
let b: Instance;

/** One API call to an instance, JSON in and out. */
async function call(
  instance: Instance,
  method: string,
  path: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${instance.base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: response.status, json, headers: response.headers };
}

/** Browsers the administrators remembered at their second factor (decision 068): one code per account, then the device. */
const devices = new Map<string, string>();

async function signIn(instance: Instance, email: string, password = PASSWORD): Promise<string> {
  const device = devices.get(email);
  const login = await call(instance, 'POST', '/api/gateway/login', {
    body: { userName: email, password },
    headers: device ? { 'x-dispositivo-confiavel': device } : {},
  });
  expect(login.status, JSON.stringify(login.json)).toBe(200);
  if (!login.json.segundoFator) return login.json.token as string;
  const answer = () =>
    call(instance, 'POST', '/api/auth/v1/segundo-fator/totp', {
      body: { codigo: totpCode(email), lembrar: true },
      headers: { 'x-desafio-segundo-fator': login.json.segundoFator.desafio },
    });
  let proved = await answer();
  if (proved.status === 400) {
    // This step's code was taken by an earlier sign-in of the account: the next step's is new.
    await nextTotpStep();
    proved = await answer();
  }
  expect(proved.status, JSON.stringify(proved.json)).toBe(200);
  devices.set(email, proved.json.dado.dispositivo);
  return proved.json.dado.token as string;
}

const asToken = (token: string) => ({ authtoken: token });
const asCookie = (token: string) => ({ cookie: `${TOKEN_COOKIES.v2}=${token}` });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The live worklist's stream of a v2 session on an instance (issue 31), read event by event. */
async function openEvents(instance: Instance, token: string) {
  const abort = new AbortController();
  const response = await fetch(`${instance.base}/api/bff/v1/pendencias/eventos`, { headers: asToken(token), signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const events: unknown[] = [];
  const pump = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) {
        ended = true;
        return;
      }
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (data) events.push(JSON.parse(data.slice(6)));
      }
    }
  })();
  let read = 0;
  return {
    /** The next event not read yet, within `ms`. */
    async next(ms = 5_000) {
      const until = Date.now() + ms;
      while (events.length <= read && !ended && Date.now() < until) await sleep(20);
      if (events.length <= read) throw new Error(`nenhum evento em ${ms} ms`);
      return events[read++];
    },
    ended: () => ended,
    pump,
    close: () => abort.abort(),
  };
}

/** Polls `check` until it holds or `ms` pass: what "at its next request" allows for the change feed's notice. */
async function eventually(check: () => Promise<void>, ms = 5_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(100);
    }
  }
}

describe.skipIf(!SERVER_URL)('two instances over one PostgreSQL and one storage', () => {
  beforeAll(async () => {
    ensureBuilt();
    const database = await emptyServerDatabase(SERVER_URL!);
    databaseUrl = database.url;
    dropDatabase = database.drop;
    s3 = await startS3();
    smtp = await fakeSmtpServer();
    env = {
      ...s3.env,
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      // What several instances must share (.env.example): the app token's secret.
      REDIRECT_APP_SECRET: randomBytes(32).toString('hex'),
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // Both at once on an empty database: the migrations and the demo must happen once between them.
    [a, b] = await Promise.all([startInstance('a', portA, env), startInstance('b', portB, env)]);
    db = await connect({ databaseUrl });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a && stopInstance(a), b && stopInstance(b)]);
    await db?.destroy();
    await smtp?.close();
    await s3?.stop();
    await dropDatabase?.();
  }, 60_000);

  it('started together on an empty database: each migration applied once, the demo seeded once', async () => {
    const twice = await db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never])
      .groupBy('name' as never)
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(twice).toEqual([]);
    const partners = await db.selectFrom('users').select('id').where('email', '=', PARTNER).execute();
    expect(partners).toHaveLength(1);
    const companies = await db.selectFrom('companies').select('id').where('cnpj', '=', HORIZONTE).execute();
    expect(companies).toHaveLength(1);
  });

  it('a session signed in on one works on the other; signed out on one, the other refuses it', async () => {
    const token = await signIn(a, PARTNER);
    expect((await call(b, 'GET', '/api/bff/v1/usuario', { headers: asToken(token) })).status).toBe(200);
    expect((await call(b, 'GET', '/v2/home', { headers: asCookie(token) })).status).toBe(200);
    expect((await call(a, 'POST', '/api/auth/v1/logout', { headers: asToken(token) })).status).toBeLessThan(300);
    await eventually(async () => {
      expect((await call(b, 'GET', '/api/bff/v1/usuario', { headers: asToken(token) })).status).toBe(401);
      expect((await call(b, 'GET', '/v2/home', { headers: asCookie(token) })).status).toBe(302);
    });
  });

  it('a session ended from the profile on one instance is refused at its next request on the other (issue 32)', async () => {
    const phone = await signIn(a, PARTNER);
    const desktop = await signIn(b, PARTNER);
    // Both instances have read the phone's session: the other instance answers it from memory.
    expect((await call(a, 'GET', '/api/bff/v1/usuario', { headers: asToken(phone) })).status).toBe(200);
    expect((await call(b, 'GET', '/api/bff/v1/usuario', { headers: asToken(phone) })).status).toBe(200);
    const { json } = await call(b, 'GET', '/api/bff/v1/sessoes', { headers: asToken(desktop) });
    const phoneId = (await db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(phone)).executeTakeFirstOrThrow()).id;
    expect(json.dado.sessoes.map((s: { id: number }) => s.id)).toContain(phoneId);
    expect((await call(b, 'DELETE', `/api/bff/v1/sessoes/${phoneId}`, { headers: asToken(desktop) })).status).toBe(200);
    await eventually(async () => {
      expect((await call(a, 'GET', '/api/bff/v1/usuario', { headers: asToken(phone) })).status).toBe(401);
      expect((await call(a, 'GET', '/v2/home', { headers: asCookie(phone) })).status).toBe(302);
    });
    expect((await call(a, 'GET', '/api/bff/v1/usuario', { headers: asToken(desktop) })).status).toBe(200);
  });

  describe('a user changed on one instance, while the other answers from its viewer memo', () => {
    let id: number;
    let token: string;
    const email = 'marina.scaleout@parceiro.demo';
    const body = (operacoes: string[]) => ({
      cpf: '123.456.781-43',
      nome: 'Marina Teixeira',
      email,
      celular: '(11) 98888-7777',
      perfil: 'PARCEIRO',
      empresas: [HORIZONTE],
      pontoVenda: '',
      operacoes,
    });
    let admin: string;

    beforeAll(async () => {
      admin = await signIn(a, PARTNER_ADMIN);
      const created = await call(a, 'POST', '/api/plataforma/v1/usuarios', {
        headers: asToken(admin),
        body: body(['COTAR_VENDER', 'HISTORICO_COTACAO_PROPOSTA']),
      });
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      // Made able to sign in, as the first access would.
      await db
        .updateTable('users')
        .set({ status: 'ATIVO', password_hash: await hashPassword(PASSWORD) })
        .where('email', '=', email)
        .execute();
      id = (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
      token = await signIn(b, email);
    });

    /** The BFF's user as the browser asks it (session cookie): an answer the memo keeps. */
    const viewerOnB = () => call(b, 'GET', '/api/bff/v1/usuario', { headers: asCookie(token) });

    it('a permission removed on A is gone from B’s next answer', async () => {
      for (let i = 0; i < 3; i++) {
        const seen = await viewerOnB();
        expect(seen.status).toBe(200);
        expect(JSON.stringify(seen.json)).toContain('HISTORICO_COTACAO_PROPOSTA');
      }
      const edited = await call(a, 'PUT', `/api/plataforma/v1/usuarios/${id}`, { headers: asToken(admin), body: body(['COTAR_VENDER']) });
      expect(edited.status, JSON.stringify(edited.json)).toBe(200);
      // The memo keeps an answer up to 30 s: only the change feed's notice from A can drop it sooner.
      await eventually(async () => {
        const seen = await viewerOnB();
        expect(seen.status).toBe(200);
        expect(JSON.stringify(seen.json)).not.toContain('HISTORICO_COTACAO_PROPOSTA');
      });
    });

    it('deactivated on A, refused by B at its next request', async () => {
      expect((await viewerOnB()).status).toBe(200);
      const deactivated = await call(a, 'PUT', `/api/plataforma/v1/usuarios/${id}/status`, {
        headers: asToken(admin),
        body: { status: 'inativo' },
      });
      expect(deactivated.status, JSON.stringify(deactivated.json)).toBe(200);
      await eventually(async () => {
        expect((await viewerOnB()).status).toBe(401);
        expect((await call(b, 'GET', '/v2/home', { headers: asCookie(token) })).status).toBe(302);
      });
    });
  });

  it('the underwriter asks for documents on A: the partner’s live worklist held on B hears it within seconds (issue 31)', async () => {
    // One of the partner's proposals waits in the acceptance queue (set up before the stream opens).
    const { nr_proposta: nrProposta } = await db
      .updateTable('proposals')
      .set({ status: 'EM_ANALISE', suspensa_desde: null, decidida_em: null, motivo: null })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('proposals as p')
          .innerJoin('users as u', 'u.id', 'p.user_id')
          .select((e) => e.fn.max('p.id').as('id'))
          .where('u.email', '=', PARTNER),
      )
      .returning('nr_proposta')
      .executeTakeFirstOrThrow();
    const stream = await openEvents(b, await signIn(b, PARTNER));
    try {
      const { novos } = (await stream.next()) as { novos: number };
      const admin = await signIn(a, 'admin@seguradora.demo');
      const decided = await fetch(`${a.base}/v2/propostas/analise`, {
        method: 'POST',
        headers: { ...asCookie(admin), origin: a.base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ nrProposta, decisao: 'SOLICITAR_DOCUMENTOS', motivo: 'Fotos da fachada, por favor.' }),
        redirect: 'manual',
      });
      expect(decided.status).toBe(303);
      const started = Date.now();
      expect(await stream.next(5_000)).toEqual({ novos: novos + 1 });
      console.log(`live worklist across instances: ${Date.now() - started} ms from the decision's answer to the event`);
    } finally {
      stream.close();
    }
  });

  it('the sign-in limit holds across both: 30 parallel wrong passwords, 5 checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(i % 2 ? a : b, 'POST', '/api/gateway/login', { body: { userName: 'substabelecido@parceiro.demo', password: 'Errada@123' } }),
      ),
    );
    const counts: Record<number, number> = {};
    for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
    expect(counts).toEqual({ 401: 5, 429: 25 });
  });

  it('20 parallel submits of one quote over both instances make one proposal', async () => {
    const v2 = await signIn(a, PARTNER);
    const simulator = await call(a, 'POST', '/api/plataforma/v1/login/token', {
      body: { nome: 'Portal', idCanalUltron: 1, nomeCanalUltron: 'Portal', email: PARTNER, cdAutenticacao: 'x', idCanal: 1 },
      headers: asToken(v2),
    });
    expect(simulator.status).toBe(200);
    const headers = asToken(simulator.json.resultado.token);
    const offers = await call(b, 'GET', '/api/bff/v1/ofertas', { headers: asToken(v2) });
    expect(offers.status, JSON.stringify(offers.json)).toBe(200);
    const nrOferta = (offers.json.dado as { code: string; nrOferta: number }[]).find((o) => o.code === 'RES')!.nrOferta;
    const quote = await call(a, 'POST', '/api/bff/v1/cotacoes', {
      headers,
      body: {
        nrOferta,
        segurado: DEMO_INSURED.residencial,
        respostas: { tipoImovel: 'casa', uso: 'habitual', construcao: 'alvenaria', valorImovel: 300_000_00, alarme: false },
      },
    });
    expect(quote.status, JSON.stringify(quote.json)).toBe(200);
    const nr = quote.json.dado.cotacao.nrCotacao as string;
    for (const [instance, step, value] of [
      [b, 'planos', { selecao: { plan: 'conforto', capitals: {} } }],
      [a, 'contratacao', { contratacao: { formaPagamento: 'boleto', parcelas: 4, diaVencimento: 10 } }],
    ] as const) {
      const saved = await call(instance, 'PUT', `/api/bff/v1/cotacoes/${nr}/${step}`, { headers, body: value });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? a : b, 'POST', `/api/bff/v1/cotacoes/${nr}/proposta`, { headers, body: { aceiteTermo: true } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.json.dado.nrProposta)).size).toBe(1);
    const proposals = await db
      .selectFrom('proposals')
      .innerJoin('quotes', 'quotes.id', 'proposals.quote_id')
      .select('proposals.nr_proposta')
      .where('quotes.nr_cotacao', '=', nr)
      .execute();
    expect(proposals).toHaveLength(1);

    // A file sent through A is read whole through B: the instances share the object store.
    const sent = await fetch(`${a.base}/api/bff/v1/propostas/${proposals[0]!.nr_proposta}/documentos?categoria=OUTRO`, {
      method: 'POST',
      headers: { ...asToken(v2), 'content-type': 'application/octet-stream', 'x-nome-arquivo': 'laudo.pdf' },
      body: MINIMAL_PDF as Uint8Array<ArrayBuffer>,
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const { id } = ((await sent.json()) as { dado: { documento: { id: number } } }).dado.documento;
    const downloaded = await fetch(`${b.base}/api/bff/v1/documentos/${id}/arquivo`, { headers: asToken(v2) });
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(Buffer.from(MINIMAL_PDF))).toBe(true);
  });

  it('restarted together, both run the jobs: each proposal accepted by silence once, each e-mail sent once', async () => {
    // Proposals whose 25 days ran out, and queued e-mails, waiting while neither instance runs.
    await Promise.all([stopInstance(a), stopInstance(b)]);
    const due = await db
      .updateTable('proposals')
      .set({ aceite_ate: new Date(Date.now() - 60_000) })
      .where('status', '=', 'EM_ANALISE')
      .returning('id')
      .execute();
    expect(due.length).toBeGreaterThan(0);
    const marker = randomBytes(4).toString('hex');
    const queued = 120;
    await db
      .insertInto('emails')
      .values(
        Array.from({ length: queued }, (_, i) => ({
          to_address: `fila${i}@parceiro.demo`,
          template: 'teste',
          subject: `Fila ${marker} numero ${i}`,
          text_body: 'Mensagem de teste da fila.',
          html_body: '<p>Mensagem de teste da fila.</p>',
          fila: true,
          created_at: new Date(),
        })) as never,
      )
      .execute();
    smtp.messages.length = 0;
    // Started together, their jobs' first turns fall within the same second.
    [a, b] = await Promise.all([startInstance('a', a.port, env), startInstance('b', b.port, env)]);
    await eventually(async () => {
      const waiting = await db
        .selectFrom('proposals')
        .select('id')
        .where('status', '=', 'EM_ANALISE')
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .execute();
      expect(waiting).toEqual([]);
      expect(smtp.messages.filter((message) => message.includes(`Fila ${marker}`)).length).toBeGreaterThanOrEqual(queued);
    }, 60_000);
    const policies = await db
      .selectFrom('policies')
      .select(['proposal_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where(
        'proposal_id',
        'in',
        due.map((d) => d.id),
      )
      .groupBy('proposal_id')
      .execute();
    expect(policies.map((p) => Number(p.n))).toEqual(due.map(() => 1));
    // Each queued message reached the SMTP server exactly once, whichever instance took it.
    await sleep(2_000);
    const subjects = smtp.messages
      .map((message) => /Fila \w+ numero \d+/.exec(message)?.[0])
      .filter((subject) => subject?.includes(marker));
    expect(subjects).toHaveLength(queued);
    expect(new Set(subjects).size).toBe(queued);
  }, 120_000);

  it.skipIf(!NGINX)(
    'a rolling restart behind the load balancer under load fails no request',
    async () => {
      const balancerPort = await freePort();
      const balancer = await startBalancer(balancerPort, [a.port, b.port]);
      const token = await signIn(a, PARTNER);
      const requests: [string, Record<string, string>][] = [
        ['/v2/home', asCookie(token)],
        ['/api/bff/v1/usuario', asToken(token)],
        ['/v2/apolices', asCookie(token)],
        ['/signin', {}],
      ];
      let sent = 0;
      const failures: string[] = [];
      let running = true;
      const worker = async (offset: number) => {
        for (let i = offset; running; i++) {
          const [path, headers] = requests[i % requests.length]!;
          sent += 1;
          try {
            const response = await fetch(`http://127.0.0.1:${balancerPort}${path}`, { headers, redirect: 'manual' });
            await response.arrayBuffer();
            if (response.status !== 200) failures.push(`${path}: ${response.status}`);
          } catch (error) {
            failures.push(`${path}: ${(error as Error).message}`);
          }
        }
      };
      const load = Array.from({ length: 6 }, (_, i) => worker(i));
      try {
        await sleep(1_000);
        for (const which of ['a', 'b'] as const) {
          const instance = which === 'a' ? a : b;
          // A live worklist stream held open (issue 31) must not hold the shutdown up: it is ended at once.
          const held = await openEvents(instance, token);
          await held.next();
          const stopping = Date.now();
          expect(await stopInstance(instance)).toBe(0);
          expect(held.ended()).toBe(true);
          console.log(`rolling restart: ${which} stopped in ${Date.now() - stopping} ms with a live stream open`);
          expect(Date.now() - stopping).toBeLessThan(4_000);
          await sleep(500); // the other carries the load alone for a moment
          const restarted = await startInstance(which, instance.port, env);
          if (which === 'a') a = restarted;
          else b = restarted;
          await sleep(1_000);
        }
      } finally {
        running = false;
        await Promise.all(load);
        await balancer.stop();
      }
      console.log(`rolling restart: ${sent} requests through the load balancer, ${failures.length} failed`);
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(100);
    },
    240_000,
  );
});
