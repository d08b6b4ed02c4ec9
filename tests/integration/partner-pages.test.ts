import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DB } from '../../src/server/db';
import type { PortalSession } from '../../src/lib/session';
import { freshDatabase } from '../fixtures/db';
import { hostileText } from '../fixtures/hostile-text';
import { formPost, tablesFingerprint } from '../fixtures/page-forms';

/**
 * The partner and substabelecido pages (issue 17) as a browser — or anyone — uses them: addresses
 * out of order go back to the first step a draft lacks, a foreign CNPJ or an unknown address is the
 * 404 page, and under random input no step throws (the page's 500) and a refused form stores
 * nothing: not a draft, a company, an offer, a user.
 */
const shared = vi.hoisted(() => ({ db: undefined as DB | undefined }));
vi.mock('../../src/server/boot/database', async (original) => ({
  ...(await original<typeof import('../../src/server/boot/database')>()),
  database: async () => shared.db!,
}));
const { companyListPage, companyStepPage } = await import('../../src/features/partners/partners.server');

let db: DB;
let close: () => Promise<void>;
const TABLES = [
  'companies',
  'company_drafts',
  'offers',
  'users',
  'user_companies',
  'user_operations',
  'sessions',
  'emails',
  'access_events',
];
let admin: PortalSession;
let partnerAdmin: PortalSession;
let seller: PortalSession;

const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  shared.db = db;
  const id = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  admin = { v2: { idUsuario: await id('admin@seguradora.demo'), cdPerfilUsuario: 'admin' } } as PortalSession;
  partnerAdmin = { v2: { idUsuario: await id('parceiro.admin@parceiro.demo'), cdPerfilUsuario: 'parceiro_admin' } } as PortalSession;
  seller = { v2: { idUsuario: await id('parceiro@parceiro.demo'), cdPerfilUsuario: 'parceiro' } } as PortalSession;
});
afterAll(() => close());

const fingerprint = () => tablesFingerprint(db, TABLES);

const post = (fields: Record<string, string | string[]>) => formPost('http://portal.test/v2/parceiros/etapas', fields);
const get = () => new Request('http://portal.test/v2/parceiros/etapas');
const url = (query = '') => new URL(`http://portal.test/v2/parceiros/etapas${query}`);
const open = (session: PortalSession, kind: 'PARCEIRO' | 'SUBSTABELECIDO', passo: string, request = get(), query = '') =>
  companyStepPage(kind, session, passo, url(query), request, '10.0.0.1');

describe('addresses', () => {
  it('the first screen alone starts a new registration; a typed-ahead step goes back to the first the draft lacks', async () => {
    expect((await open(admin, 'PARCEIRO', 'empresa')).kind).toBe('page');
    expect(await open(admin, 'PARCEIRO', 'endereco')).toEqual({ kind: 'redirect', to: '/v2/parceiros/etapas/empresa' });
    // No draft of this CNPJ: back to the start.
    expect(await open(admin, 'PARCEIRO', 'endereco/19131243000197/sede/novo')).toEqual({
      kind: 'redirect',
      to: '/v2/parceiros/etapas/empresa',
    });
    const saved = await open(
      admin,
      'PARCEIRO',
      'empresa',
      post({ cnpj: '19.131.243/0001-97', razaoSocial: 'Varejo Boreal S.A.', nomeFantasia: 'Boreal', corretora: '', susep: '' }),
    );
    expect(saved).toEqual({ kind: 'redirect', to: '/v2/parceiros/etapas/endereco/19131243000197/sede/novo' });
    expect(await open(admin, 'PARCEIRO', 'revisao/19131243000197/resumo/novo')).toEqual({
      kind: 'redirect',
      to: '/v2/parceiros/etapas/endereco/19131243000197/sede/novo',
    });
    const resumed = await open(admin, 'PARCEIRO', 'empresa/19131243000197/dados/novo');
    expect(resumed.kind === 'page' && resumed.props.values).toMatchObject({
      cnpj: '19.131.243/0001-97',
      nomeFantasia: 'Boreal',
      corretora: '',
    });
  });

  it('an unknown screen, sub-step or action is the 404 page; so is a company of another kind, or one the viewer does not manage', async () => {
    for (const passo of [
      'nada',
      'contatos/11222333000181/sede/novo',
      'empresa/11222333000181/dados/apagar',
      'empresa/11222333000181/dados',
      'empresa/x/dados/novo',
    ])
      expect((await open(admin, 'PARCEIRO', passo)).kind, passo).toBe('not-found');
    expect((await open(admin, 'PARCEIRO', `empresa/${VALE_VERDE}/dados/editar`)).kind).toBe('not-found');
    expect((await open(admin, 'SUBSTABELECIDO', `empresa/${HORIZONTE}/dados/editar`)).kind).toBe('not-found');
    // A partner's administrator does not manage partners, nor does a seller substabelecidos.
    expect((await open(partnerAdmin, 'PARCEIRO', `revisao/${HORIZONTE}/resumo/visualizar`)).kind).toBe('not-found');
    expect((await open(seller, 'SUBSTABELECIDO', `revisao/${VALE_VERDE}/resumo/visualizar`)).kind).toBe('not-found');
    expect((await open(partnerAdmin, 'SUBSTABELECIDO', `revisao/${VALE_VERDE}/resumo/visualizar`)).kind).toBe('page');
    // Another partner's substabelecido draft is not found by this one's administrator.
    const otherPartner = await db
      .insertInto('companies')
      .values({ cnpj: '77888999000181', razao_social: 'Outra Corretora Ltda.', nome_fantasia: 'Outra', tipo: 'PARCEIRO' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('company_drafts')
      .values({
        tipo: 'SUBSTABELECIDO',
        cnpj: '44555666000181',
        acao: 'novo',
        parent_id: otherPartner.id,
        dados: JSON.stringify({}),
        updated_at: new Date(),
      })
      .execute();
    expect((await open(partnerAdmin, 'SUBSTABELECIDO', 'endereco/44555666000181/sede/novo')).kind).toBe('not-found');
    expect((await open(admin, 'SUBSTABELECIDO', 'endereco/44555666000181/sede/novo')).kind).not.toBe('not-found');
  });

  it('viewing shows the review only; the list’s action in the address is what was just done, anything else 404', async () => {
    expect(await open(admin, 'PARCEIRO', `empresa/${HORIZONTE}/dados/visualizar`)).toEqual({
      kind: 'redirect',
      to: `/v2/parceiros/etapas/revisao/${HORIZONTE}/resumo/visualizar`,
    });
    const review = await open(admin, 'PARCEIRO', `revisao/${HORIZONTE}/resumo/visualizar`, get(), '?operacao=suspender');
    expect(review.kind === 'page' && review.props.operation).toBe('suspender');
    const list = await companyListPage(
      'SUBSTABELECIDO',
      partnerAdmin,
      new URL('http://portal.test/v2/substabelecido/consulta/suspenso'),
      'suspenso',
    );
    expect(list.kind === 'page' && list.props.notice).toContain('suspenso');
    expect((await companyListPage('SUBSTABELECIDO', partnerAdmin, new URL('http://portal.test/x'), 'apagado')).kind).toBe('not-found');
    const bad = await companyListPage('PARCEIRO', admin, new URL('http://portal.test/v2/parceiros/consulta?status=x&pagina=0'));
    expect(bad.kind === 'page' && bad.status).toBe(400);
  });

  it('a suspension without a reason is refused on the page and changes nothing', async () => {
    const before = await fingerprint();
    const refused = await open(
      admin,
      'PARCEIRO',
      `revisao/${HORIZONTE}/resumo/visualizar`,
      post({ operacao: 'suspender', motivo: 'curto' }),
    );
    expect(refused.kind === 'page' && [refused.status, refused.props.errors]).toEqual([
      400,
      { motivo: ['Informe o motivo da suspensão (10 a 500 caracteres).'] },
    ]);
    expect(await fingerprint()).toBe(before);
  });
});

const value = fc.oneof(
  hostileText(),
  fc.constantFrom(
    '',
    'sim',
    'CONTA',
    'PIX',
    '341',
    '1234',
    '12345-6',
    'corrente',
    HORIZONTE,
    '11.222.333/0001-81',
    '12ABC34501DE35',
    'RES',
    'VEU',
    '20,00',
    '99',
    '2026-07-01',
    'SP',
    '01310-100',
    'suspender',
    'reativar',
    '1',
    '-1',
  ),
);
const fields = fc.dictionary(
  fc.constantFrom(
    'cnpj',
    'razaoSocial',
    'nomeFantasia',
    'corretora',
    'susep',
    'parceiro',
    'cep',
    'logradouro',
    'numero',
    'complemento',
    'bairro',
    'cidade',
    'uf',
    'nome',
    'cpf',
    'email',
    'celular',
    'cargo',
    'telefone',
    'emailFinanceiro',
    'tipo',
    'banco',
    'agencia',
    'conta',
    'tipoConta',
    'titular',
    'chave',
    'produto',
    'oferta',
    'comissao_RES',
    'inicio_RES',
    'comissao_1',
    'inicio_1',
    'operacao',
    'motivo',
  ),
  fc.oneof(value, fc.array(value, { maxLength: 3 })),
);
const screens = [
  'empresa/dados',
  'endereco/sede',
  'contatos/responsavel',
  'contatos/comercial',
  'financeiro/conta',
  'ofertas/produtos',
  'administrador/usuario',
  'revisao/resumo',
] as const;

// Issue 27: an offer outside the partner's, injected in the substabelecido's offers step (a checkbox
// added or its value changed in the browser), came back with messages of fields the page does not
// show — nothing said what was wrong. It is named under the list: not one of the partner's offers.
describe('an offer outside the partner’s in the substabelecido’s offers step', () => {
  const offersStep = `ofertas/${VALE_VERDE}/produtos/editar`;
  const partnerOffer = async () =>
    (
      await db
        .selectFrom('offers as o')
        .innerJoin('companies as c', 'c.id', 'o.company_id')
        .select('o.id')
        .where('c.cnpj', '=', HORIZONTE)
        .where('o.ativo', '=', true)
        .orderBy('o.id')
        .executeTakeFirstOrThrow()
    ).id;
  const foreignOffer = async () =>
    (
      await db
        .selectFrom('offers as o')
        .innerJoin('companies as c', 'c.id', 'o.company_id')
        .select('o.id')
        .where('c.cnpj', '!=', HORIZONTE)
        .orderBy('o.id')
        .executeTakeFirst()
    )?.id ?? 999_999;

  it.each([
    ['a made-up offer number, without its row', async () => ({ oferta: '999999' })],
    ['a made-up offer number, with a row', async () => ({ oferta: '999999', comissao_999999: '5', inicio_999999: '2026-07-01' })],
    [
      'another company’s offer',
      async () => {
        const id = await foreignOffer();
        return { oferta: String(id), [`comissao_${id}`]: '5', [`inicio_${id}`]: '2026-07-01' };
      },
    ],
    [
      'the partner’s offer with its value changed',
      async () => {
        const id = await partnerOffer();
        return { oferta: '999999', [`comissao_${id}`]: '5', [`inicio_${id}`]: '2026-07-01' };
      },
    ],
  ])('%s: 400, the list says the offer is not the partner’s, nothing stored', async (_, body) => {
    const before = await fingerprint();
    const routed = await open(partnerAdmin, 'SUBSTABELECIDO', offersStep, post(await body()));
    expect(routed.kind).toBe('page');
    if (routed.kind !== 'page') return;
    expect(routed.status).toBe(400);
    expect(routed.props.errors).toEqual({ ofertas: ['Oferta fora das ofertas vigentes do parceiro.'] });
    expect(await fingerprint()).toBe(before);
  });
});

describe('every step under random input', () => {
  it('never throws; a refused step stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fields,
        fc.constantFrom(...screens),
        fc.constantFrom('PARCEIRO', 'SUBSTABELECIDO') as fc.Arbitrary<'PARCEIRO' | 'SUBSTABELECIDO'>,
        fc.constantFrom(undefined, HORIZONTE, VALE_VERDE, '19131243000197', 'x'),
        fc.constantFrom('novo', 'editar', 'visualizar', 'x'),
        fc.constantFrom(admin, partnerAdmin, seller),
        async (body, screen, kind, cnpj, action, session) => {
          const [tela, subetapa] = screen.split('/') as [string, string];
          const passo = cnpj ? `${tela}/${cnpj}/${subetapa}/${action}` : tela;
          const before = await fingerprint();
          const routed = await open(session, kind, passo, post(body));
          if (routed.kind === 'page') {
            expect(routed.status).toBeGreaterThanOrEqual(400);
            expect(await fingerprint()).toBe(before);
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 240_000);
});
