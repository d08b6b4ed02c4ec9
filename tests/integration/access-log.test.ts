import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { api } from '../../src/server/api';
import { changesSettled } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi } from '../fixtures/api';
import { hostileText } from '../fixtures/hostile-text';
import { MINIMAL_PDF } from '../fixtures/documents';
import { sellResidential, viewerByEmail } from '../fixtures/selling';
import { listEmails } from '../../src/server/mail/outbox';
import { DEMO_INSURED } from '../../src/server/demo/seed-quotes';
import { keysetPager, pageRequestOf, totalPagesOf, type PageRequest } from '../../src/lib/keyset-pages';
import {
  appendAccessEvent,
  listAccessLog,
  purgeAccessLog,
  purgeBatch,
  recordDataAccess,
} from '../../src/server/services/identity/access-log';
import { policyPdfResponse } from '../../src/features/policies/policy-pdf.server';
import { quotePdfRoute } from '../../src/features/simulators/quote-pdf.server';
import { sellerFromV2 } from '../../src/server/services/selling/sellers';
import { routeSimulator } from '../../src/features/simulators/simulator.server';
import { JOBS } from '../../src/server/boot/jobs';
import { stepPath } from '../../src/lib/quote-flow';
import { isAccessEvent, type AccessLogFilters } from '../../src/lib/access-log';
import { digitsOnly } from '../../src/lib/validators';
import { brasiliaDay } from '../../src/lib/format';
import { now } from '../../src/server/clock';

/**
 * The access log (issue 17, decision 049) against a real database: the table refuses every change
 * but the retention purge; each place that shows or hands out an insured's data writes exactly one
 * row naming the record (and a refused request none); the issue's sign-in, sign-out, first-access
 * and SSO events are written once each; the filters, paging and CSV of /v2/log-acesso; only the
 * insurer's ADMIN reads it; random filters never break the page and a refused export writes nothing.
 * The pages' functions run against this file's database (server/database is swapped for it).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'portal-access-log-'));
process.env.DATA_DIR = dataDir; // documents' files, read at first use (server/files.ts)

const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { accessLogPage, accessLogExport } = await import('../../src/features/access-log/access-log.server');
const { policyPage } = await import('../../src/features/policies/policies.server');
const { endorsementHomePage, contactEndorsementPage } = await import('../../src/features/endorsements/endorsements.server');
const { routeCancellation } = await import('../../src/features/endorsements/cancellation.server');
const { boletoPage, paymentsExport } = await import('../../src/features/payments/payments.server');

let db: DB;
let close: () => Promise<void>;
/** Every statement this file's database runs (one test counts those of a logged view). */
const statements: string[] = [];
const IP = '203.0.113.9';
const PARTNER = 'parceiro@parceiro.demo';
const PARTNER_ADMIN = 'parceiro.admin@parceiro.demo';
const ADMIN = 'admin@seguradora.demo';
let sale: { nrCotacao: string; nrProposta: string; nrApolice: string; idContratacao: number };
let horizonte: number;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ onQuery: (statement) => statements.push(statement) }));
  shared.db = db;
  const sold = await sellResidential(db);
  const policy = await db
    .selectFrom('policies')
    .select(['id_contratacao', 'company_id'])
    .where('nr_apolice', '=', sold.nrApolice!)
    .executeTakeFirstOrThrow();
  sale = { ...sold, nrApolice: sold.nrApolice!, idContratacao: policy.id_contratacao };
  horizonte = policy.company_id!;
});
afterAll(async () => {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
});

const userId = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const sessionOf = async (email: string): Promise<PortalSession> => {
  const viewer = await viewerByEmail(db, email);
  return viewer.generation === 'v1' ? { v1: viewer.user } : { v2: viewer.user };
};
const lastId = async () =>
  (await db.selectFrom('access_events').select(sql<number>`coalesce(max(id), 0)::int`.as('id')).executeTakeFirstOrThrow()).id;
const rowsAfter = (id: number) => db.selectFrom('access_events').selectAll().where('id', '>', id).orderBy('id').execute();

/** What `action` wrote to the log (it answers whatever it answers). */
async function written(action: () => Promise<unknown>) {
  const before = await lastId();
  await action();
  return rowsAfter(before);
}

const call = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(db, { ip: IP })(...args);
const tokens = new Map<string, string>();
async function tokenOf(email: string): Promise<string> {
  if (!tokens.has(email)) {
    const { json } = await signInApi(apiClient(db, { ip: IP }), email);
    tokens.set(email, (json.resultado?.token ?? json.token ?? json.dado?.token) as string);
  }
  return tokens.get(email)!;
}

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE from plain SQL, whoever sends them', async () => {
    await appendAccessEvent(db, { event: 'LOGIN', generation: 'v2', email: 'intocavel@teste.demo', userId: null, ip: IP });
    const id = await lastId();
    await expect(sql`update access_events set ip = '0.0.0.0' where id = ${id}`.execute(db)).rejects.toThrow(/só recebe inclusões: UPDATE/);
    await expect(sql`delete from access_events where id = ${id}`.execute(db)).rejects.toThrow(/só recebe inclusões: DELETE/);
    await expect(sql`truncate access_events`.execute(db)).rejects.toThrow(/só recebe inclusões: TRUNCATE/);
    const row = await db.selectFrom('access_events').select(['ip', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ ip: IP, email: 'intocavel@teste.demo' });
  });

  it('lets a purge delete only rows older than the cut-off it set for its own transaction', async () => {
    await appendAccessEvent(db, { event: 'LOGIN', generation: 'v2', email: 'recente@teste.demo', userId: null, ip: IP });
    const id = await lastId();
    const attempt = db.transaction().execute(async (trx) => {
      await sql`select set_config('portal.access_log_purge_before', ${new Date(Date.now() - 86_400_000).toISOString()}, true)`.execute(trx);
      await sql`delete from access_events where id = ${id}`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/só recebe inclusões: DELETE/);
    // The setting ends with its transaction: the next statement is refused again.
    await expect(sql`delete from access_events where created_at < now() - interval '1000 days'`.execute(db)).resolves.toBeDefined();
    expect(await db.selectFrom('access_events').select('id').where('id', '=', id).executeTakeFirst()).toBeDefined();
  });
});

describe('retention', () => {
  const at = new Date('2026-11-20T15:00:00Z');
  const daysBefore = (days: number) => new Date(at.getTime() - days * 86_400_000);
  const insertAt = (email: string, when: Date, count = 1) =>
    sql`insert into access_events (event, generation, email, ip, created_at)
        select 'LOGIN', 'v2', ${email}, '10.9.9.9', ${when}::timestamptz from generate_series(1, ${count})`.execute(db);
  const countOf = async (email: string) =>
    (await db.selectFrom('access_events').select(sql<number>`count(*)::int`.as('n')).where('email', '=', email).executeTakeFirstOrThrow())
      .n;

  it('the purge deletes what is older than the retention and keeps the rest', async () => {
    await insertAt('velho@retencao.demo', daysBefore(366), 3);
    await insertAt('recente@retencao.demo', daysBefore(364), 2);
    const before = await countOf('velho@retencao.demo');
    expect(await purgeAccessLog(db, 365, at)).toBeGreaterThanOrEqual(before);
    expect([await countOf('velho@retencao.demo'), await countOf('recente@retencao.demo')]).toEqual([0, 2]);
    expect(await purgeAccessLog(db, 365, at)).toBe(0);
  });

  it('two purges at once (two instances) share the work in batches and delete each row once', async () => {
    await insertAt('lote@retencao.demo', daysBefore(400), 12_000);
    const [a, b] = await Promise.all([purgeAccessLog(db, 365, at), purgeAccessLog(db, 365, at)]);
    expect(a + b).toBe(12_000);
    expect(await countOf('lote@retencao.demo')).toBe(0);
    expect(await countOf('recente@retencao.demo')).toBe(2);
  }, 120_000);

  it('a batch of the purge deletes its rows by id through the primary key, never a scan of the whole table (issue 29)', async () => {
    // The batch's own claim may scan a table this small; the delete of what it claimed must not.
    const plan = await sql`explain (costs off) ${purgeBatch(daysBefore(365))}`.execute(db);
    const text = (plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/Seq Scan on access_events$/m);
    expect(text).toMatch(/Index Cond: \(id = ANY/);
  });

  it('runs as a job of every instance', () => {
    expect(JOBS.map((j) => j.name)).toContain('guarda do log de acesso');
  });
});

describe('each view of an insured’s data writes one row naming its record', () => {
  const VIEW = 'DADOS_SEGURADO_VISUALIZADOS';
  const EXPORT = 'DADOS_SEGURADO_EXPORTADOS';
  const quotePdf = quotePdfRoute((d, session) => session.v2 && sellerFromV2(d, session.v2));
  const pdfOf = async (email: string, type: string, nrCotation: string) =>
    (await quotePdf({
      params: { type, nrCotation },
      locals: { session: await sessionOf(email), client: { ip: IP } },
      rewrite: async () => new Response(null, { status: 404 }),
    } as never)) as Response;

  const cases: [string, () => Promise<unknown>, Record<string, unknown>][] = [
    [
      'the policy’s page',
      async () => expect(await policyPage('v2', await sessionOf(PARTNER), sale.nrApolice, IP)).toBeDefined(),
      { event: VIEW, registro_tipo: 'APOLICE', detalhe: 'Página da apólice' },
    ],
    [
      'the policy’s PDF',
      async () =>
        expect(
          (
            await policyPdfResponse(
              db,
              await viewerByEmail(db, PARTNER),
              { type: 'apolice', nrApolice: sale.nrApolice, parcela: null },
              new Date(),
              IP,
            )
          )?.status,
        ).toBe(200),
      { event: EXPORT, registro_tipo: 'APOLICE', detalhe: 'PDF da apólice' },
    ],
    [
      'a boleto’s PDF',
      async () =>
        expect(
          (
            await policyPdfResponse(
              db,
              await viewerByEmail(db, PARTNER),
              { type: 'boleto', nrApolice: sale.nrApolice, parcela: '1' },
              new Date(),
              IP,
            )
          )?.status,
        ).toBe(200),
      { event: EXPORT, registro_tipo: 'APOLICE', detalhe: 'PDF do boleto: parcela 1' },
    ],
    [
      'the endorsements’ page',
      async () => expect(await endorsementHomePage('v2', await sessionOf(PARTNER), String(sale.idContratacao), IP)).toBeDefined(),
      { event: VIEW, registro_tipo: 'APOLICE', detalhe: 'Endossos da apólice' },
    ],
    [
      'the contact endorsement’s form',
      async () =>
        expect(await contactEndorsementPage('v2', await sessionOf(PARTNER), sale.nrProposta, String(sale.idContratacao), IP)).toBeDefined(),
      { event: VIEW, registro_tipo: 'APOLICE', detalhe: 'Endosso de dados cadastrais' },
    ],
    [
      'a cancellation step',
      async () =>
        expect(
          (
            await routeCancellation(
              'v2',
              await sessionOf(PARTNER),
              'motivo',
              new URLSearchParams({ contratacao: String(sale.idContratacao) }),
              IP,
            )
          ).kind,
        ).toBe('step'),
      { event: VIEW, registro_tipo: 'APOLICE', detalhe: 'Cancelamento da apólice: etapa Motivo' },
    ],
    [
      'the 2ª via search',
      async () =>
        expect(
          (await boletoPage(await sessionOf(PARTNER), new URLSearchParams({ nrApolice: sale.nrApolice }), IP)).result?.content.length,
        ).toBeGreaterThan(0),
      { event: VIEW, registro_tipo: 'APOLICE', detalhe: 'Busca de 2ª via de boleto: busca por apólice' },
    ],
    [
      'the partner admin’s look at a seller’s quote page',
      async () => {
        const passo = stepPath('v2', 'residencial', 'resumo', sale.nrCotacao, { action: 'visualizar', sent: true }).replace(
          '/v2/simulador-residencial/',
          '',
        );
        const viewer = await viewerByEmail(db, PARTNER_ADMIN);
        expect((await routeSimulator(db, viewer, { linha: 'residencial', passo }, {} as never, { ip: IP })).kind).toBe('render');
      },
      { event: VIEW, registro_tipo: 'COTACAO', detalhe: 'Cotação de outro vendedor: etapa resumo' },
    ],
  ];

  it.each(cases)('%s', async (_, action, expected) => {
    const rows = await written(action);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...expected, ip: IP, generation: 'v2' });
    expect(rows[0]!.registro).toBe(rows[0]!.registro_tipo === 'COTACAO' ? sale.nrCotacao : sale.nrApolice);
    // The sale's company, whichever the viewer acts for (decision 072): the seller's own, and the
    // partner admin's look is Horizonte's too.
    expect(rows[0]!.company_id).toBe(horizonte);
  });

  it('the quote and proposal PDFs name the quote and the proposal', async () => {
    const quote = await written(async () => expect((await pdfOf(PARTNER, 'cotacao', sale.nrCotacao)).status).toBe(200));
    expect(quote).toMatchObject([
      { event: EXPORT, registro_tipo: 'COTACAO', registro: sale.nrCotacao, detalhe: 'PDF da cotação', user_id: await userId(PARTNER) },
    ]);
    const proposal = await written(async () => expect((await pdfOf(PARTNER, 'proposta', sale.nrCotacao)).status).toBe(200));
    expect(proposal).toMatchObject([
      { event: EXPORT, registro_tipo: 'PROPOSTA', registro: sale.nrProposta, detalhe: `PDF da proposta: cotação ${sale.nrCotacao}` },
    ]);
  });

  it('the seller filling in their own quote writes nothing; another’s quote read through the API writes one row', async () => {
    const passo = stepPath('v2', 'residencial', 'resumo', sale.nrCotacao, { action: 'visualizar', sent: true }).replace(
      '/v2/simulador-residencial/',
      '',
    );
    const own = await written(async () =>
      expect(
        (await routeSimulator(db, await viewerByEmail(db, PARTNER), { linha: 'residencial', passo }, {} as never, { ip: IP })).kind,
      ).toBe('render'),
    );
    expect(own).toEqual([]);
    const mine = await written(async () =>
      expect((await call('GET', `/api/bff/v1/cotacoes/${sale.nrCotacao}`, { headers: { authtoken: await tokenOf(PARTNER) } })).status).toBe(
        200,
      ),
    );
    expect(mine.filter((r) => r.event.startsWith('DADOS'))).toEqual([]);
    const other = await written(async () =>
      expect(
        (await call('GET', `/api/bff/v1/cotacoes/${sale.nrCotacao}`, { headers: { authtoken: await tokenOf(PARTNER_ADMIN) } })).status,
      ).toBe(200),
    );
    expect(other.filter((r) => r.event.startsWith('DADOS'))).toMatchObject([
      {
        event: VIEW,
        registro_tipo: 'COTACAO',
        registro: sale.nrCotacao,
        detalhe: 'Cotação de outro vendedor: API',
        user_id: await userId(PARTNER_ADMIN),
      },
    ]);
  });

  it('a document’s download names the document and its policy', async () => {
    await changesSettled(db);
    const uploaded = await api.handle(
      new Request(`http://portal.test/api/bff/v1/propostas/${sale.nrProposta}/documentos?categoria=OUTRO`, {
        method: 'POST',
        headers: { authtoken: await tokenOf(PARTNER), 'content-type': 'application/octet-stream', 'x-nome-arquivo': 'laudo.pdf' },
        body: MINIMAL_PDF as Uint8Array<ArrayBuffer>,
      }),
      { ip: IP, db: async () => db },
    );
    const answer = (await uploaded.json()) as { dado: { documento: { id: number } } };
    expect(uploaded.status, JSON.stringify(answer)).toBe(200);
    const dado = answer.dado.documento;
    const rows = await written(async () => {
      const response = await api.handle(
        new Request(`http://portal.test/api/bff/v1/documentos/${dado.id}/arquivo`, { headers: { authtoken: await tokenOf(PARTNER) } }),
        { ip: IP, db: async () => db },
      );
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expect(rows).toMatchObject([
      {
        event: EXPORT,
        registro_tipo: 'DOCUMENTO',
        registro: String(dado.id),
        detalhe: `Arquivo do documento: apólice ${sale.nrApolice}`,
        ip: IP,
      },
    ]);
  });

  it('the policy opened with the link e-mailed to the insured: no user, the policy and the address', async () => {
    const { GET } = await import('../../src/pages/apolice-digital/[token]');
    const queued = await db
      .selectFrom('emails')
      .select('segredos')
      .where('template', '=', 'apolice-emitida-segurado')
      .where('subject', 'like', `%${sale.nrApolice}%`)
      .executeTakeFirstOrThrow();
    const secrets = (typeof queued.segredos === 'string' ? JSON.parse(queued.segredos) : queued.segredos) as Record<string, string>;
    const token = /apolice-digital\/([\w-]{43})$/.exec(secrets.link ?? '')![1]!;
    const rows = await written(async () => {
      const response = (await GET({
        params: { token },
        locals: { client: { ip: IP } },
        rewrite: async () => new Response(null, { status: 404 }),
      } as never)) as Response;
      expect(response.status).toBe(200);
    });
    expect(rows).toMatchObject([
      {
        event: EXPORT,
        user_id: null,
        email: '',
        registro_tipo: 'APOLICE',
        registro: sale.nrApolice,
        ip: IP,
        detalhe: 'PDF da apólice aberto pelo link enviado ao segurado',
      },
    ]);
    const today = brasiliaDay(now());
    const shown = await listAccessLog(db, { registro: sale.nrApolice, evento: EXPORT, de: today, ate: today }, { page: 1 }, 1);
    // Nobody acted for a company: the row is filed under the policy's (decision 072).
    expect(shown.content[0]).toMatchObject({
      usuario: '—',
      empresa: expect.stringMatching(/^Corretora Horizonte/),
      detalhe: 'PDF da apólice aberto pelo link enviado ao segurado',
    });
  });

  it('the legacy payments CSV names the period it exported', async () => {
    const rows = await written(async () => {
      const response = await paymentsExport(
        await sessionOf('admin@legado.demo'),
        new URLSearchParams({ de: '2026-01-01', ate: '2026-01-31' }),
        IP,
      );
      expect(response.status).toBe(200);
      await response.text();
    });
    expect(rows).toMatchObject([
      {
        event: EXPORT,
        generation: 'v1',
        registro_tipo: 'PAGAMENTOS',
        registro: null,
        detalhe: 'CSV do relatório de pagamentos: de 01/01/2026 a 31/01/2026',
      },
    ]);
  });

  it('what a viewer may not see writes nothing: a 404 is not a view', async () => {
    const rows = await written(async () => {
      expect(await policyPage('v2', await sessionOf('substabelecido@parceiro.demo'), sale.nrApolice, IP)).toBeUndefined();
      expect(await policyPage('v2', await sessionOf(PARTNER), '99999999', IP)).toBeUndefined();
      expect(
        await policyPdfResponse(
          db,
          await viewerByEmail(db, 'vendedor@legado.demo'),
          { type: 'apolice', nrApolice: sale.nrApolice, parcela: null },
          new Date(),
          IP,
        ),
      ).toBeUndefined();
      expect((await boletoPage(await sessionOf(PARTNER), new URLSearchParams({ nrApolice: '99999999' }), IP)).result?.content).toEqual([]);
      expect((await pdfOf('substabelecido@parceiro.demo', 'cotacao', sale.nrCotacao)).status).toBe(404);
    });
    expect(rows).toEqual([]);
  });

  it('recordDataAccess is one statement: the viewer’s facts come from the principal cache the pipeline filled', async () => {
    const viewer = await viewerByEmail(db, PARTNER); // reads the user's facts, as the session pipeline does
    statements.length = 0;
    await recordDataAccess(db, viewer, IP, 'apolice.pagina', sale.nrApolice);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^\s*insert into "?access_events"?/);
  });
});

describe('sign-in, sign-out, first access and SSO are written once each', () => {
  it('a sign-in, a refused one, and a sign-out (once, however often it is asked)', async () => {
    const login = await written(() =>
      call('POST', '/api/gateway/login', { body: { userName: 'juliana.costa@parceiro.demo', password: DEMO_PASSWORD } }),
    );
    expect(login).toMatchObject([{ event: 'LOGIN', email: 'juliana.costa@parceiro.demo', ip: IP, company_id: horizonte }]);
    const refused = await written(() =>
      call('POST', '/api/gateway/login', { body: { userName: 'juliana.costa@parceiro.demo', password: 'Errada@2026' } }),
    );
    expect(refused).toMatchObject([{ event: 'LOGIN_FALHOU', email: 'juliana.costa@parceiro.demo' }]);
    const { json } = await call('POST', '/api/gateway/login', {
      body: { userName: 'juliana.costa@parceiro.demo', password: DEMO_PASSWORD },
    });
    const out = await written(() => call('POST', '/api/auth/v1/logout', { headers: { authtoken: json.token } }));
    expect(out).toMatchObject([{ event: 'LOGOUT', generation: 'v2', email: 'juliana.costa@parceiro.demo', ip: IP }]);
    expect(await written(() => call('POST', '/api/auth/v1/logout', { headers: { authtoken: json.token } }))).toEqual([]);
  });

  it('an SSO session: its issue by the ADMIN, then one sign-in by it', async () => {
    const authtoken = await tokenOf(ADMIN);
    const issued = await written(async () => {
      const { status, json } = await call('POST', '/api/auth/v2/sessao-sso', {
        body: { email: 'igor.pereira@parceiro.demo' },
        headers: { authtoken },
      });
      expect(status).toBe(200);
      const id = json.dado.idSessaoSSO as string;
      const used = await written(() => call('GET', `/api/auth/v2/cognito-auth/token/${id}`, { headers: { nmIdSessao: id } }));
      expect(used).toMatchObject([{ event: 'SSO', email: 'igor.pereira@parceiro.demo', ip: IP }]);
    });
    expect(issued[0]).toMatchObject({ event: 'SSO_EMITIDO', email: 'igor.pereira@parceiro.demo', actor_id: await userId(ADMIN) });
  });

  it('the first access is logged as such, not as a password change', async () => {
    const email = 'novo.parceiro@parceiro.demo';
    await call('POST', '/api/bff/v1/codigo-validacao/reenviar', { body: { email } });
    const message = (await listEmails(db, 500)).find((m) => m.to_address === email)!;
    const code = /Código de validação: (\d{6})/.exec(message.text_body)![1]!;
    const rows = await written(() =>
      call('POST', '/api/bff/v1/primeiro-acesso', { body: { email, codigo: code, senha: 'Primeiro@1', confirmacao: 'Primeiro@1' } }),
    );
    expect(rows).toMatchObject([{ event: 'PRIMEIRO_ACESSO', email, ip: IP }]);
  });
});

describe('the log’s filters, paging and CSV', () => {
  const MARCH: Pick<AccessLogFilters, 'de' | 'ate'> = { de: '2026-03-01', ate: '2026-03-31' };
  let ana: number;
  beforeAll(async () => {
    ana = await userId('igor.pereira@parceiro.demo');
    const admin = await userId(ADMIN);
    const rows = [
      // 02:30 UTC on 10/03 is still 09/03 in Brasília.
      { event: 'LOGIN', email: 'igor.pereira@parceiro.demo', user_id: ana, company_id: horizonte, created_at: '2026-03-10T02:30:00Z' },
      {
        event: 'USUARIO_BLOQUEADO',
        email: 'igor.pereira@parceiro.demo',
        user_id: ana,
        actor_id: admin,
        company_id: horizonte,
        created_at: '2026-03-12T12:00:00Z',
        detalhe: 'situação: ATIVO → BLOQUEADO',
      },
      {
        event: 'DADOS_SEGURADO_VISUALIZADOS',
        email: 'igor.pereira@parceiro.demo',
        user_id: ana,
        company_id: horizonte,
        created_at: '2026-03-15T12:00:00Z',
        registro_tipo: 'APOLICE',
        registro: '7000001, 7000002',
        detalhe: 'Consulta de parcelas e pagamentos',
      },
      { event: 'LOGIN_FALHOU', email: '=HYPERLINK("http://x")@filtro.demo', created_at: '2026-03-20T12:00:00Z' },
      { event: 'LOGIN', email: 'igor.pereira@parceiro.demo', user_id: ana, company_id: horizonte, created_at: '2026-04-01T12:00:00Z' },
    ];
    for (const row of rows)
      await db
        .insertInto('access_events')
        .values({ generation: 'v2', ip: '198.51.100.1', ...row })
        .execute();
  });
  const list = (filters: Partial<AccessLogFilters>, request: PageRequest = { page: 1 }, size = 20) =>
    listAccessLog(db, { ...MARCH, ...filters }, request, size);
  const events = async (filters: Partial<AccessLogFilters>) => (await list(filters)).content.map((r) => r.evento);

  it('by user (the subject or whoever acted on them), newest first, within the period in Brasília days', async () => {
    expect(await events({ usuario: 'Igor Pereira' })).toEqual(['DADOS_SEGURADO_VISUALIZADOS', 'USUARIO_BLOQUEADO', 'LOGIN']);
    expect(await events({ usuario: 'igor.pereira@', de: '2026-03-10' })).toEqual(['DADOS_SEGURADO_VISUALIZADOS', 'USUARIO_BLOQUEADO']);
    expect(await events({ usuario: 'admin@seguradora', ate: '2026-03-31' })).toContain('USUARIO_BLOQUEADO');
    expect(await events({ usuario: '%' })).toEqual([]); // a wildcard is text
  });

  it('by company (name or CNPJ with or without its mask), event and record — one of several a row names', async () => {
    expect(await events({ empresa: '11.222.333/0001-81', evento: 'LOGIN' })).toEqual(['LOGIN']);
    expect(await events({ empresa: 'horizonte', registro: '7000002' })).toEqual(['DADOS_SEGURADO_VISUALIZADOS']);
    expect(await events({ registro: '700000' })).toEqual([]);
    expect(await events({ empresa: 'Vale Verde' })).toEqual([]);
  });

  it('pages with the count of the filters: the next page starts after the last row shown (keyset), or by its number alone', async () => {
    const first = await list({ usuario: 'igor.pereira' }, { page: 1 }, 2);
    const next = keysetPager(first).next!;
    const second = await list({ usuario: 'igor.pereira' }, pageRequestOf(next.page, next.cursor), 2);
    expect([first.total, totalPagesOf(first), second.page, second.more]).toEqual([3, 2, 2, false]);
    expect(await list({ usuario: 'igor.pereira' }, { page: 2 }, 2)).toEqual(second);
    expect([...first.content, ...second.content].map((r) => r.evento)).toEqual([
      'DADOS_SEGURADO_VISUALIZADOS',
      'USUARIO_BLOQUEADO',
      'LOGIN',
    ]);
    expect(first.content[1]).toMatchObject({ autor: 'Carla Mendes (admin@seguradora.demo)', registro: '—' });
  });

  it('the page: the ADMIN’s, with its filters shown again; a bad filter is a 400 with pt-BR messages; anyone else is refused', async () => {
    const admin = await sessionOf(ADMIN);
    const page = await accessLogPage(admin, new URL('http://portal.test/v2/log-acesso?usuario=igor.pereira&de=2026-03-01&ate=2026-03-31'));
    expect(page).toMatchObject({
      kind: 'page',
      status: 200,
      props: { values: { usuario: 'igor.pereira', de: '2026-03-01', ate: '2026-03-31' } },
    });
    if (page.kind !== 'page') throw new Error('page');
    expect(page.props.result?.total).toBe(3);
    expect(page.props.exportHref).toBe('/v2/log-acesso/exportar.csv?usuario=igor.pereira&de=2026-03-01&ate=2026-03-31');
    const bad = await accessLogPage(admin, new URL('http://portal.test/v2/log-acesso?de=2026-03-31&ate=2026-03-01&evento=x'));
    expect(bad).toMatchObject({
      kind: 'page',
      status: 400,
      props: { errors: { evento: ['Escolha um evento da lista.'] }, values: { evento: 'x' } },
    });
    const reversed = await accessLogPage(admin, new URL('http://portal.test/v2/log-acesso?de=2026-03-31&ate=2026-03-01'));
    expect(reversed).toMatchObject({ status: 400, props: { errors: { ate: ['A data final não pode ser anterior à data inicial.'] } } });
    for (const email of [PARTNER_ADMIN, PARTNER, 'admin@legado.demo'])
      expect(await accessLogPage(await sessionOf(email), new URL('http://portal.test/v2/log-acesso'))).toEqual({ kind: 'forbidden' });
  });

  it('the API: the ADMIN gets the page of rows; the partner admin 403; no session 401; bad filters 400 with field errors', async () => {
    const path = '/api/bff/v1/log-acesso?usuario=igor.pereira&de=2026-03-01&ate=2026-03-31';
    const ok = await call('GET', path, { headers: { authtoken: await tokenOf(ADMIN) } });
    expect(ok.status).toBe(200);
    expect(ok.json.dado).toMatchObject({ totalElements: 3, totalPages: 1, page: 1, more: false, nextCursor: null });
    expect(ok.json.dado.content[0]).toMatchObject({
      evento: 'DADOS_SEGURADO_VISUALIZADOS',
      registro: 'Apólice 7000001, 7000002',
      ip: '198.51.100.1',
    });
    expect((await call('GET', path, { headers: { authtoken: await tokenOf(PARTNER_ADMIN) } })).status).toBe(403);
    expect((await call('GET', '/api/bff/v1/log-acesso?evento=nada', { headers: { authtoken: await tokenOf(PARTNER_ADMIN) } })).status).toBe(
      403,
    );
    expect((await call('GET', path)).status).toBe(401);
    const bad = await call('GET', '/api/bff/v1/log-acesso?de=2025-01-01&ate=2026-06-01', { headers: { authtoken: await tokenOf(ADMIN) } });
    expect(bad.status).toBe(400);
    expect(bad.json.erros).toEqual({ ate: ['O período pode ter no máximo 1 ano: diminua o intervalo.'] });
  });

  it('the CSV: every row of the filters, read back with csv-parse; formulas kept as text; the export itself on the log', async () => {
    const before = await lastId();
    const response = await accessLogExport(
      await sessionOf(ADMIN),
      new URL('http://portal.test/v2/log-acesso/exportar.csv?de=2026-03-01&ate=2026-03-31&empresa=&usuario='),
      IP,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="log-de-acesso-2026-03-01-a-2026-03-31\.csv";/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM Excel reads UTF-8 by
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const records = parse(text, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(records.map((r) => r['Código do evento'])).toEqual([
      'LOGIN_FALHOU',
      'DADOS_SEGURADO_VISUALIZADOS',
      'USUARIO_BLOQUEADO',
      'LOGIN',
    ]);
    expect(records[0]!.Usuário).toBe(`'=HYPERLINK("http://x")@filtro.demo`);
    expect(records[1]).toMatchObject({
      'Data e hora (Brasília)': '15/03/2026 09:00:00',
      Evento: 'Dados de segurado visualizados',
      Usuário: 'Igor Pereira (igor.pereira@parceiro.demo)',
      Empresa: expect.stringContaining('(11.222.333/0001-81)'),
      IP: '198.51.100.1',
      Registro: 'Apólice 7000001, 7000002',
    });
    expect(records[2]!['Feito por']).toBe('Carla Mendes (admin@seguradora.demo)');
    expect(await rowsAfter(before)).toMatchObject([
      { event: 'LOG_ACESSO_EXPORTADO', user_id: await userId(ADMIN), ip: IP, detalhe: 'Filtros: período de 01/03/2026 a 31/03/2026' },
    ]);
  });

  it('the CSV streams past its batches without losing or repeating a row, ties of time included', async () => {
    await sql`insert into access_events (event, generation, email, ip, created_at)
      select 'LOGIN', 'v1', 'lote' || n || '@csv.demo', '10.1.1.1', '2026-05-05T12:00:00Z'::timestamptz from generate_series(1, 2345) n`.execute(
      db,
    );
    const response = await accessLogExport(
      await sessionOf(ADMIN),
      new URL('http://portal.test/x?usuario=@csv.demo&de=2026-05-01&ate=2026-05-31'),
      IP,
    );
    const records = parse(await response.text(), { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(2345);
    expect(new Set(records.map((r) => r.Usuário)).size).toBe(2345);
  }, 60_000);

  // A key truncated to the millisecond skipped every row of that millisecond walking backwards (issue 29).
  it('the CSV keeps rows that share a millisecond, told apart by their microseconds', async () => {
    await sql`insert into access_events (event, generation, email, ip, created_at)
      select 'LOGIN', 'v1', 'micro' || n || '@csv.demo', '10.1.1.1', '2026-05-06T12:00:00.123Z'::timestamptz + n * interval '1 microsecond'
      from generate_series(1, 1500) n`.execute(db);
    const response = await accessLogExport(
      await sessionOf(ADMIN),
      new URL('http://portal.test/x?usuario=micro&de=2026-05-01&ate=2026-05-31'),
      IP,
    );
    const records = parse(await response.text(), { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(new Set(records.map((r) => r.Usuário)).size).toBe(1500);
    expect(records).toHaveLength(1500);
  }, 60_000);

  it('a refused export writes nothing: another profile 403, bad filters 400', async () => {
    const rows = await written(async () => {
      expect((await accessLogExport(await sessionOf(PARTNER_ADMIN), new URL('http://portal.test/x'), IP)).status).toBe(403);
      const bad = await accessLogExport(await sessionOf(ADMIN), new URL('http://portal.test/x?de=ontem'), IP);
      expect([bad.status, await bad.text()]).toEqual([400, 'Filtros inválidos: Informe uma data válida.']);
    });
    expect(rows).toEqual([]);
  });
});

describe('random input', () => {
  const value = fc.oneof(
    hostileText(),
    fc.constantFrom(
      '',
      'LOGIN',
      'login',
      'DADOS_SEGURADO_VISUALIZADOS',
      '2026-03-01',
      '2026-02-30',
      '2025-01-01',
      '1000001',
      '11222333000181',
      '0',
      '2',
      'a\u0000b', // the database holds no NUL: refused as a filter, never sent to a query
      // Cursors (issue 29): one well formed (after 2026-03-20, id 1), one edited, one not base64url.
      'YS4wLjIwMjYtMDMtMjBUMTI6MDA6MDAuMDAwMDAwWi4x',
      'YS45OTkuMjAyNi0xMy0yMFQxMjowMDowMC4wMDAwMDBaLjE',
      '%%%',
    ),
  );
  const query = fc.dictionary(
    fc.constantFrom('usuario', 'empresa', 'evento', 'registro', 'de', 'ate', 'pagina', 'cursor', 'outro'),
    value,
    {
      maxKeys: 7,
    },
  );
  const urlOf = (fields: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [key, v] of Object.entries(fields)) params.append(key, v);
    return new URL(`http://portal.test/v2/log-acesso?${params}`);
  };

  it('the page never throws; a refused filter is a 400 with a message under a field', async () => {
    const admin = await sessionOf(ADMIN);
    await fc.assert(
      fc.asyncProperty(query, async (fields) => {
        const page = await accessLogPage(admin, urlOf(fields));
        if (page.kind !== 'page') throw new Error('the ADMIN is never refused');
        expect([200, 400]).toContain(page.status);
        if (page.status === 400) expect(Object.keys(page.props.errors ?? {}).length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('the export never throws; a refused one stores nothing, an accepted one exactly its own row', async () => {
    const admin = await sessionOf(ADMIN);
    await fc.assert(
      fc.asyncProperty(query, async (fields) => {
        const rows = await written(async () => {
          const response = await accessLogExport(admin, urlOf(fields), IP);
          expect([200, 400]).toContain(response.status);
          await response.text();
        });
        expect(rows.length).toBeLessThanOrEqual(1);
        for (const row of rows) expect(row.event).toBe('LOG_ACESSO_EXPORTADO');
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('what the log holds', () => {
  it('only events the log knows, and never a password, a token or a CPF', async () => {
    const rows = await db.selectFrom('access_events').selectAll().execute();
    const unknown = [...new Set(rows.map((r) => r.event))].filter((e) => !isAccessEvent(e));
    expect(unknown).toEqual([]);
    const cpfs = (await db.selectFrom('users').select('cpf').where('cpf', 'is not', null).execute()).map((u) => u.cpf!);
    cpfs.push(...Object.values(DEMO_INSURED).flatMap((i) => ('cpf' in i ? [digitsOnly(i.cpf)] : [])));
    const texts = rows.map((r) => [r.email, r.detalhe, r.registro].join(' '));
    for (const cpf of cpfs) {
      const masked = cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
      expect(texts.filter((t) => t.includes(cpf) || t.includes(masked))).toEqual([]);
    }
    for (const secret of [DEMO_PASSWORD, 'Primeiro@1', ...tokens.values()]) expect(texts.filter((t) => t.includes(secret))).toEqual([]);
  });

  it('the pages that log a view never opt into the viewer memo (each view must reach the log)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]));
    const logging = sources('src').filter((file) =>
      /recordDataAccess|recordDocumentDownload|recordInsuredLinkAccess/.test(readFileSync(file, 'utf8')),
    );
    expect(logging.length).toBeGreaterThan(10);
    for (const file of logging) expect(readFileSync(file, 'utf8'), file).not.toMatch(/VIEWER_MEMO_HEADER|viewerOnly/);
    // The memo's only takers: the homes and the BFF's user call.
    const takers = sources('src').filter(
      (file) =>
        !/viewer-memo\.ts$|shared-page\.ts$|router\.ts$/.test(file) &&
        /VIEWER_MEMO_HEADER|viewerOnly: true/.test(readFileSync(file, 'utf8')),
    );
    expect(takers.map((file) => file.split('/').at(-1)).sort()).toEqual(['HomePage.astro', 'bff.ts']);
  });
});
