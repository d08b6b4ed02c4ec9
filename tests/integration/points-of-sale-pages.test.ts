import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { changesSettled, type DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';

/**
 * The point of sale pages (issue 17) as a browser — or anyone — uses them: plain forms that take
 * whatever is posted. No answer may throw (the page's 500), and a form that is refused stores
 * nothing: not a point of sale, a seller moved, an access event. Then what the pages show to whom.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { pointOfSaleFormPage, pointOfSaleListPage, pointOfSaleSuccessPage } = await import(
  '../../src/features/points-of-sale/points-of-sale.server'
);

let db: DB;
let close: () => Promise<void>;
const TABLES = ['points_of_sale', 'users', 'access_events'];
let partnerAdmin: PortalSession;
let subagent: PortalSession;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  shared.db = db;
  const id = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  partnerAdmin = { v2: { idUsuario: await id('parceiro.admin@parceiro.demo'), cdPerfilUsuario: 'parceiro_admin' } } as PortalSession;
  subagent = { v2: { idUsuario: await id('substabelecido@parceiro.demo'), cdPerfilUsuario: 'substabelecido' } } as PortalSession;
  for (const p of await db.selectFrom('points_of_sale').select(['id', 'codigo']).execute()) ids[p.codigo] = p.id;
});
afterAll(() => close());

const fingerprint = () => tablesFingerprint(db, TABLES);

const post = formPost;

describe('the point of sale pages under random input', () => {
  const value = fc.oneof(
    hostileText(),
    fc.constantFrom(
      '',
      'ativo',
      'inativo',
      '11222333000181',
      '33444555000181',
      'PV-0001',
      'pv-0002',
      'VV-0001',
      '01310-100',
      'SP',
      '1',
      '7',
      '-1',
    ),
  );
  const fields = fc.dictionary(
    fc.constantFrom(
      'empresa',
      'nome',
      'codigo',
      'cep',
      'logradouro',
      'numero',
      'complemento',
      'bairro',
      'cidade',
      'uf',
      'status',
      'vendedores',
    ),
    fc.oneof(value, fc.array(value, { maxLength: 3 })),
  );

  it('the form, new or of an existing one: never throws; a refused form stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fields,
        fc.option(
          fc.record({
            id: fc.oneof(hostileText(), fc.constantFrom('1', '3', '999999', '0')),
            action: fc.oneof(hostileText(), fc.constantFrom('visualizar', 'editar', 'novo')),
          }),
          { nil: undefined },
        ),
        fc.constantFrom(partnerAdmin, subagent),
        async (body, params, session) => {
          const before = await fingerprint();
          const routed = await pointOfSaleFormPage(
            session,
            params ?? {},
            post('http://portal.test/v2/ponto-venda/cadastro', body),
            '10.0.0.1',
          );
          if (routed.kind === 'page') expect(routed.status).toBeGreaterThanOrEqual(400);
          if (routed.kind !== 'redirect') expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('the list and the success page: any query answers a page, a 400 or the 404, never a throw', async () => {
    const query = fc.dictionary(fc.constantFrom('empresa', 'busca', 'situacao', 'page', 'pontoVenda', 'aviso'), value);
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const search = new URLSearchParams(params).toString();
        const list = await pointOfSaleListPage(partnerAdmin, new URL(`http://portal.test/v2/ponto-venda/consulta?${search}`));
        expect(list.kind).toBe('page');
        if (list.kind === 'page') expect([200, 400]).toContain(list.status);
        await pointOfSaleSuccessPage(partnerAdmin, new URL(`http://portal.test/v2/ponto-venda/sucesso?${search}`));
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});

describe('what the pages show', () => {
  it('an address that names no point of sale, another company’s, or an unknown action is the 404; viewing takes no POST', async () => {
    // The partner seller, made a manager of Horizonte's points of sale.
    const { id } = await db.selectFrom('users').select('id').where('email', '=', 'parceiro@parceiro.demo').executeTakeFirstOrThrow();
    await db.insertInto('user_operations').values({ user_id: id, operation: 'GERENCIAR_PONTO_VENDA' }).execute();
    await changesSettled(db);
    const partner = { v2: { idUsuario: id, cdPerfilUsuario: 'parceiro' } } as PortalSession;
    const get = (session: PortalSession, id: string, action: string) =>
      pointOfSaleFormPage(session, { id, action }, new Request('http://portal.test/x'), '10.0.0.1');
    expect((await get(partner, String(ids['VV-0001']), 'visualizar')).kind).toBe('not-found');
    expect((await get(partner, String(ids['PV-0001']), 'excluir')).kind).toBe('not-found');
    expect((await get(partner, '999999', 'editar')).kind).toBe('not-found');
    expect((await get(partner, String(ids['PV-0001']), 'visualizar')).kind).toBe('page');
    // Without the permission the sub-delegated manager of users finds nothing, even of its own company.
    expect((await get(subagent, String(ids['VV-0001']), 'editar')).kind).toBe('not-found');
    expect(
      await pointOfSaleSuccessPage(partner, new URL(`http://portal.test/v2/ponto-venda/sucesso?pontoVenda=${ids['VV-0001']}`)),
    ).toBeUndefined();

    const before = await fingerprint();
    const viewed = await pointOfSaleFormPage(
      partner,
      { id: String(ids['PV-0001']), action: 'visualizar' },
      post('http://portal.test/x', { nome: 'Outro nome' }),
      '10.0.0.1',
    );
    expect(viewed).toMatchObject({ kind: 'page', status: 405 });
    expect(await fingerprint()).toBe(before);
  });

  it('the form lists the company’s users with where they work, and locks those the viewer may not change', async () => {
    const routed = await pointOfSaleFormPage(
      partnerAdmin,
      { id: String(ids['PV-0002']), action: 'editar' },
      new Request('http://portal.test/x'),
      '10.0.0.1',
    );
    if (routed.kind !== 'page') throw new Error(routed.kind);
    const { sellerGroups, legacySellers, values } = routed.props;
    expect(sellerGroups.map((g) => g.empresa.nome)).toEqual(['Corretora Horizonte Seguros Ltda.']);
    const byEmail = Object.fromEntries(sellerGroups[0]!.sellers.map((s) => [s.email, s]));
    expect(byEmail['juliana.costa@parceiro.demo']).toMatchObject({ manageable: true, pointOfSale: { codigo: 'PV-0002' } });
    expect(byEmail['igor.pereira@parceiro.demo']).toMatchObject({ manageable: true, pointOfSale: { codigo: 'PV-0001' } });
    expect(byEmail['parceiro.admin@parceiro.demo']).toMatchObject({ manageable: true, pointOfSale: null });
    // The pending user counts (they will sell), the insurer's admin belongs to no company.
    expect(byEmail['novo.parceiro@parceiro.demo']).toBeDefined();
    expect(byEmail['admin@seguradora.demo']).toBeUndefined();
    expect(values.vendedores).toEqual([String(byEmail['juliana.costa@parceiro.demo']!.id)]);
    expect(legacySellers.map((s) => s.email)).toEqual(['vendedor@legado.demo']);

    // The seller made a manager of points of sale (above) changes no user: every box is locked.
    const { id } = await db.selectFrom('users').select('id').where('email', '=', 'parceiro@parceiro.demo').executeTakeFirstOrThrow();
    const partner = { v2: { idUsuario: id, cdPerfilUsuario: 'parceiro' } } as PortalSession;
    const locked = await pointOfSaleFormPage(
      partner,
      { id: String(ids['PV-0002']), action: 'editar' },
      new Request('http://portal.test/x'),
      '10.0.0.1',
    );
    if (locked.kind !== 'page') throw new Error(locked.kind);
    expect(locked.props.sellerGroups[0]!.sellers.every((s) => !s.manageable)).toBe(true);
  });

  it('a new point of sale saved from the form goes to the success page, which says what was saved and links the metrics', async () => {
    const juliana = (await db.selectFrom('users').select('id').where('email', '=', 'juliana.costa@parceiro.demo').executeTakeFirstOrThrow())
      .id;
    const routed = await pointOfSaleFormPage(
      partnerAdmin,
      {},
      post('http://portal.test/v2/ponto-venda/cadastro', {
        empresa: '11.222.333/0001-81',
        nome: 'Quiosque Shopping Norte',
        codigo: 'pv-0003',
        cep: '02011-000',
        logradouro: 'Avenida Otto Baumgart',
        numero: '500',
        complemento: '',
        bairro: 'Vila Guilherme',
        cidade: 'São Paulo',
        uf: 'SP',
        status: 'ativo',
        vendedores: String(juliana),
      }),
      '10.0.0.1',
    );
    expect(routed.kind).toBe('redirect');
    const to = new URL((routed as { to: string }).to, 'http://portal.test');
    expect(to.pathname).toBe('/v2/ponto-venda/sucesso');
    const success = await pointOfSaleSuccessPage(partnerAdmin, to);
    expect(success).toMatchObject({
      notice: 'Ponto de venda cadastrado.',
      record: { codigo: 'PV-0003', status: 'ATIVO' },
      sellers: [{ email: 'juliana.costa@parceiro.demo' }],
      metricsHref: '/v2/metricas/evolucao-vendas?empresa=11222333000181&pontoVenda=PV-0003',
    });
  });
});
