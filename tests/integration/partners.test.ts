import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { hostileText } from '../fixtures/hostile-text';
import type { DB } from '../../src/server/db';
import { freshDatabase } from '../fixtures/db';
import { apiClient, DEMO_PASSWORD, signInApi, tokenOf } from '../fixtures/api';
import { sellResidential } from '../fixtures/selling';
import { hashPassword } from '../../src/server/auth/passwords';
import { sellableOffers } from '../../src/server/services/network/offers';
import { companyActorOf, openRegistration } from '../../src/server/services/network/partners-company';
import { findUserByEmail, loadV2User } from '../../src/server/services/identity/principals';
import { brasiliaDay } from '../../src/lib/format';
import { OFFER_MESSAGES, SIGN_IN_SUSPENDED } from '../../src/lib/partners';
import { COMPANY_FORM_MESSAGES } from '../../src/lib/partner-forms';
import { tablesFingerprint } from '../fixtures/page-forms';

/**
 * Partners and substabelecidos (issue 17, decision 052) through the BFF: every onboarding step saved
 * and resumed, the rules of each (CNPJ numeric and alphanumeric, duplicates, SUSEP, remuneration
 * limits, the substabelecido's subset), steps out of order and foreign CNPJs, an activation that is
 * all or nothing, what a substabelecido then sells, the edit, the suspension and its effects, the
 * lists and who may use each endpoint. Runs on PGlite and on PostgreSQL (DATABASE_URL).
 */
let db: DB;
let close: () => Promise<void>;
let call: ReturnType<typeof apiClient>;
const tokens = {} as Record<'admin' | 'partnerAdmin' | 'partner' | 'sub', string>;

const HORIZONTE = '11222333000181';
const VALE_VERDE = '33444555000181';
const TODAY = brasiliaDay(new Date());

async function v2Token(email: string, password = DEMO_PASSWORD) {
  const { json, status } = await signInApi(call, email, password);
  expect(status, JSON.stringify(json)).toBe(200);
  return tokenOf(json) as string;
}
const as = (token: string) => ({ authtoken: token });
type Kind = 'parceiros' | 'substabelecidos';
const step = (token: string, kind: Kind, cnpj: string, screen: string, body: unknown, acao = 'novo') =>
  call('PUT', `/api/bff/v1/${kind}/${cnpj}/etapas/${screen}?acao=${acao}`, { headers: as(token), body });
const confirm = (token: string, kind: Kind, cnpj: string, acao = 'novo') =>
  call('POST', `/api/bff/v1/${kind}/${cnpj}/confirmacao?acao=${acao}`, { headers: as(token), body: {} });
const draftOf = async (cnpj: string, acao: 'novo' | 'editar' = 'novo') =>
  (
    await db
      .selectFrom('company_drafts')
      .select(['dados', 'tipo', 'parent_id'])
      .where('cnpj', '=', cnpj)
      .where('acao', '=', acao)
      .executeTakeFirst()
  )?.dados as Record<string, unknown> | undefined;
const companyId = async (cnpj: string) =>
  (await db.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirstOrThrow()).id;
const idOf = async (email: string) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** The steps' answers of a company, each as the form would post it. */
const company = (cnpj: string, over: Record<string, unknown> = {}) => ({
  empresa: {
    cnpj,
    razaoSocial: 'Corretora Aurora Seguros Ltda.',
    nomeFantasia: 'Aurora Seguros',
    corretora: 'sim',
    susep: '10.2033.4455',
    ...over,
  },
  endereco: {
    cep: '30130-000',
    logradouro: 'Avenida Afonso Pena',
    numero: '1500',
    complemento: 'Sala 401',
    bairro: 'Centro',
    cidade: 'Belo Horizonte',
    uf: 'mg',
  },
  responsavel: {
    nome: 'Helena Aurora Reis',
    cpf: '361.842.577-57',
    email: 'helena@aurora.com.br',
    celular: '(31) 99876-5432',
    cargo: 'Sócia-administradora',
  },
  comercial: { email: 'comercial@aurora.com.br', telefone: '(31) 3222-1000', emailFinanceiro: 'financeiro@aurora.com.br' },
  conta: { tipo: 'CONTA', banco: '001', agencia: '3344', conta: '98765-4', tipoConta: 'corrente', titular: cnpj },
});
const STEPS = [
  ['empresa/dados', 'empresa'],
  ['endereco/sede', 'endereco'],
  ['contatos/responsavel', 'responsavel'],
  ['contatos/comercial', 'comercial'],
  ['financeiro/conta', 'conta'],
] as const;

beforeAll(async () => {
  ({ db, close } = await freshDatabase({ afterSaleDemo: false }));
  call = apiClient(db);
  tokens.admin = await v2Token('admin');
  tokens.partnerAdmin = await v2Token('parceiro.admin@parceiro.demo');
  tokens.partner = await v2Token('parceiro@parceiro.demo');
  tokens.sub = await v2Token('substabelecido@parceiro.demo');
});
afterAll(() => close());

describe('onboarding a partner (ADMIN)', () => {
  const CNPJ = '12ABC34501DE35'; // alphanumeric, the format of July 2026
  const admin = { cpf: '470.258.136-80', nome: 'Otávio Aurora Lima', email: 'otavio@aurora.com.br', celular: '(31) 98888-1111' };

  it('saves each step in a draft that a reload resumes; a step ahead of it, or unknown, is refused', async () => {
    const answers = company('12.abc.345/01de-35');
    // Out of order: nothing of this CNPJ yet.
    expect((await step(tokens.admin, 'parceiros', CNPJ, 'endereco/sede', answers.endereco)).status).toBe(404);
    for (const [screen, key] of STEPS) {
      const saved = await step(tokens.admin, 'parceiros', CNPJ, screen, answers[key]);
      expect(saved.status, `${screen}: ${JSON.stringify(saved.json)}`).toBe(200);
      expect(Object.keys((await draftOf(CNPJ)) ?? {})).toContain(key);
      if (key === 'empresa') {
        // Typed ahead of the draft: the first step it lacks is named.
        const ahead = await step(tokens.admin, 'parceiros', CNPJ, 'financeiro/conta', answers.conta);
        expect(ahead.status).toBe(409);
        expect(ahead.json.message).toContain('Endereço da sede');
      }
    }
    const draft = await draftOf(CNPJ);
    expect(draft?.empresa).toMatchObject({ cnpj: CNPJ, corretora: true, susep: '1020334455' });
    expect(draft?.endereco).toMatchObject({ cep: '30130000', uf: 'MG' });
    expect(draft?.conta).toMatchObject({ conta: '987654', titular: CNPJ });
    // Another day: the draft opens with every answer.
    const actor = await companyActorOf(db, { id: await idOf('admin@seguradora.demo'), profile: 'admin' });
    const opened = await openRegistration(db, actor, 'PARCEIRO', { cnpj: CNPJ, action: 'novo' });
    expect(opened.kind === 'ok' && Object.keys(opened.registration.draft).sort()).toEqual([
      'comercial',
      'conta',
      'empresa',
      'endereco',
      'responsavel',
    ]);
    expect((await step(tokens.admin, 'parceiros', CNPJ, 'revisao/resumo', {})).status).toBe(404);
    expect((await step(tokens.admin, 'parceiros', CNPJ, 'contatos/sede', {})).status).toBe(404);
  });

  it('refuses a remuneration above the product’s limit, and an unknown product; stores nothing of it', async () => {
    const before = await draftOf(CNPJ);
    const above = await step(tokens.admin, 'parceiros', CNPJ, 'ofertas/produtos', {
      ofertas: [{ simulador: 'AFU', comissao: '20,5', inicio: TODAY }],
    });
    expect(above.status).toBe(400);
    expect(above.json.erros).toEqual({ comissao_AFU: [OFFER_MESSAGES.aboveLimit('20,00%')] });
    const unknown = await step(tokens.admin, 'parceiros', CNPJ, 'ofertas/produtos', {
      ofertas: [{ simulador: 'EMP', comissao: '10', inicio: TODAY }],
    });
    expect(unknown.json.erros).toEqual({ ofertas: [OFFER_MESSAGES.unknownProduct] });
    expect(await draftOf(CNPJ)).toEqual(before);
  });

  it('activates in one transaction: company, offers, the first administrator with the first-access e-mail, the log; the draft goes', async () => {
    const offers = await step(tokens.admin, 'parceiros', CNPJ, 'ofertas/produtos', {
      ofertas: [
        { simulador: 'RES', comissao: '22,5', inicio: TODAY },
        { simulador: 'VEU', comissao: 25, inicio: TODAY },
        { simulador: 'IPU', comissao: '30', inicio: TODAY },
      ],
    });
    expect(offers.status, JSON.stringify(offers.json)).toBe(200);
    expect(offers.json.dado.proximaEtapa).toBe(`/v2/parceiros/etapas/administrador/${CNPJ}/usuario/novo`);
    expect((await step(tokens.admin, 'parceiros', CNPJ, 'administrador/usuario', admin)).status).toBe(200);

    const done = await confirm(tokens.admin, 'parceiros', CNPJ);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const row = await db.selectFrom('companies').selectAll().where('cnpj', '=', CNPJ).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tipo: 'PARCEIRO', status: 'ATIVO', corretora: true, susep: '1020334455', parent_id: null });
    expect(row.activated_at).toBeInstanceOf(Date);
    const rows = await db
      .selectFrom('offers')
      .select(['comissao_centesimos', 'vigencia_inicio', 'parent_offer_id'])
      .where('company_id', '=', row.id)
      .execute();
    expect(rows.map((o) => o.comissao_centesimos).sort()).toEqual([22_50, 25_00, 30_00]);
    const user = await db.selectFrom('users').selectAll().where('email', '=', admin.email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ profile: 'parceiro_admin', status: 'PENDENTE', cpf: '47025813680', company_id: row.id });
    expect(await db.selectFrom('emails').select('template').where('to_address', '=', admin.email).execute()).toEqual([
      { template: 'codigo-validacao' },
    ]);
    expect(await draftOf(CNPJ)).toBeUndefined();
    const event = await db.selectFrom('access_events').selectAll().where('event', '=', 'PARCEIRO_CADASTRADO').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor_id: await idOf('admin@seguradora.demo') });
    expect(event.detalhe).toContain('12.ABC.345/01DE-35');
    expect(event.detalhe).toContain('conta ***654');
    expect(event.detalhe).not.toContain('987654');
    // The review answers the account masked.
    const view = await call('GET', `/api/bff/v1/parceiros/${CNPJ}`, { headers: as(tokens.admin) });
    expect(view.json.dado).toMatchObject({
      situacao: 'ATIVO',
      conta: expect.stringContaining('conta ***654'),
      empresa: { razaoSocial: 'Corretora Aurora Seguros Ltda.' },
    });
    // Confirming again finds it done.
    expect((await confirm(tokens.admin, 'parceiros', CNPJ)).status).toBe(409);
  });

  it('refuses a duplicate CNPJ, one already in registration, and a SUSEP registration already taken', async () => {
    const dup = await step(tokens.admin, 'parceiros', HORIZONTE, 'empresa/dados', company('11.222.333/0001-81').empresa);
    expect(dup.status).toBe(409);
    expect(dup.json.erros.cnpj).toEqual([COMPANY_FORM_MESSAGES.duplicateCnpj]);
    expect(
      (await step(tokens.admin, 'parceiros', '55666777000181', 'empresa/dados', company('55666777000181').empresa)).json.erros.susep,
    ).toEqual([COMPANY_FORM_MESSAGES.duplicateSusep]);
    expect(
      (await step(tokens.admin, 'parceiros', '55666777000181', 'empresa/dados', company('55666777000181', { susep: '4455667' }).empresa))
        .status,
    ).toBe(200);
    const again = await step(
      tokens.admin,
      'parceiros',
      '44555666000181',
      'empresa/dados',
      company('55666777000181', { susep: '', corretora: '' }).empresa,
    );
    expect(again.status).toBe(409);
    expect(again.json.erros.cnpj).toEqual([COMPANY_FORM_MESSAGES.draftElsewhere]);
    const bad = await step(tokens.admin, 'parceiros', '11222333000180', 'empresa/dados', company('11.222.333/0001-80').empresa);
    expect(bad.status).toBe(400);
    expect(bad.json.erros.cnpj).toEqual([COMPANY_FORM_MESSAGES.cnpj]);
  });

  it('writes nothing when the activation fails midway (the administrator’s e-mail taken meanwhile), and keeps the draft', async () => {
    const CNPJ2 = '55666777000181';
    const answers = company(CNPJ2, { susep: '4455667' });
    for (const [screen, key] of STEPS.slice(1))
      expect((await step(tokens.admin, 'parceiros', CNPJ2, screen, answers[key])).status).toBe(200);
    await step(tokens.admin, 'parceiros', CNPJ2, 'ofertas/produtos', { ofertas: [{ simulador: 'RES', comissao: '20', inicio: TODAY }] });
    const late = { cpf: '529.183.746-28', nome: 'Bruna Tardia Melo', email: 'bruna@exemplo.com.br', celular: '(11) 97777-2222' };
    expect((await step(tokens.admin, 'parceiros', CNPJ2, 'administrador/usuario', late)).status).toBe(200);
    // Someone registers that e-mail before the activation.
    await db
      .insertInto('users')
      .values({
        email: late.email,
        nome: 'Outra Pessoa',
        generation: 'v2',
        profile: 'parceiro',
        status: 'INATIVO',
        cpf: null,
        password_hash: null,
        company_id: null,
      })
      .execute();
    const counts = async () => {
      const { rows } = await sql<{ c: number; o: number; u: number; e: number }>`select
        (select count(*) from companies)::int as c, (select count(*) from offers)::int as o,
        (select count(*) from users)::int as u, (select count(*) from emails)::int as e`.execute(db);
      return rows[0];
    };
    const before = await counts();
    const failed = await confirm(tokens.admin, 'parceiros', CNPJ2);
    expect(failed.status).toBe(409);
    expect(failed.json.erros.administrador).toEqual(['E-mail já cadastrado para outro usuário.']);
    expect(await counts()).toEqual(before);
    expect(Object.keys((await draftOf(CNPJ2)) ?? {})).toContain('administrador');
    // Fixed, it activates; two confirmations at once create one company.
    await db.deleteFrom('users').where('email', '=', late.email).execute();
    const [a, b] = await Promise.all([confirm(tokens.admin, 'parceiros', CNPJ2), confirm(tokens.admin, 'parceiros', CNPJ2)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await db.selectFrom('companies').select('id').where('cnpj', '=', CNPJ2).execute()).length).toBe(1);
  });
});

describe('onboarding a substabelecido (PARCEIRO_ADMIN)', () => {
  const SUB = '98765432000198';
  const admin = { cpf: '153.509.460-56', nome: 'Sérgio Campos Rocha', email: 'sergio@campos.com.br', celular: '(11) 96666-3333' };
  let horizonteOffers: { id: number; code: string; comissao: number }[];

  beforeAll(async () => {
    horizonteOffers = (
      await db
        .selectFrom('offers as o')
        .innerJoin('simulators as s', 's.id', 'o.simulator_id')
        .innerJoin('companies as c', 'c.id', 'o.company_id')
        .select(['o.id', 's.code', 'o.comissao_centesimos as comissao'])
        .where('c.cnpj', '=', HORIZONTE)
        .execute()
    ).sort((x, y) => x.id - y.id);
  });
  const offerOf = (code: string) => horizonteOffers.find((o) => o.code === code)!;

  it('keys the draft to the partner: another partner’s administrator does not find it, a seller may not start one', async () => {
    const answers = company(SUB, {
      susep: '',
      corretora: '',
      parceiro: HORIZONTE,
      razaoSocial: 'Campos Corretagem Ltda.',
      nomeFantasia: 'Campos',
    });
    const saved = await step(tokens.partnerAdmin, 'substabelecidos', SUB, 'empresa/dados', answers.empresa);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(
      (await db.selectFrom('company_drafts').select('parent_id').where('cnpj', '=', SUB).executeTakeFirstOrThrow()).parent_id,
    ).not.toBeNull();
    for (const [screen, key] of STEPS.slice(1))
      expect((await step(tokens.partnerAdmin, 'substabelecidos', SUB, screen, answers[key])).status).toBe(200);
    // The partner named must be one the actor manages.
    const foreign = await step(tokens.partnerAdmin, 'substabelecidos', '77888999000181', 'empresa/dados', {
      ...answers.empresa,
      cnpj: '77888999000181',
      parceiro: '12ABC34501DE35',
    });
    expect(foreign.json.erros.parceiro).toEqual([COMPANY_FORM_MESSAGES.partnerUnknown]);
    // The administrator of the partner onboarded above is another partner's: the draft is not theirs.
    await db
      .updateTable('users')
      .set({ status: 'ATIVO', password_hash: await hashPassword(DEMO_PASSWORD) })
      .where('email', '=', 'otavio@aurora.com.br')
      .execute();
    const otherAdmin = await v2Token('otavio@aurora.com.br');
    expect((await step(otherAdmin, 'substabelecidos', SUB, 'financeiro/conta', answers.conta)).status).toBe(404);
    expect((await confirm(otherAdmin, 'substabelecidos', SUB)).status).toBe(404);
    expect((await step(tokens.partner, 'substabelecidos', SUB, 'empresa/dados', answers.empresa)).status).toBe(403);
  });

  it('takes only a subset of the partner’s offers in force, each at most at the partner’s remuneration', async () => {
    const res = offerOf('RES');
    const above = await step(tokens.partnerAdmin, 'substabelecidos', SUB, 'ofertas/produtos', {
      ofertas: [{ oferta: res.id, comissao: (res.comissao + 1) / 100, inicio: TODAY }],
    });
    expect(above.status).toBe(400);
    expect(above.json.erros[`comissao_${res.id}`]).toEqual([OFFER_MESSAGES.aboveParent('20,00%')]);
    // An offer of another company (the partner onboarded above) is not the partner's.
    const foreignOffer = await db
      .selectFrom('offers as o')
      .innerJoin('companies as c', 'c.id', 'o.company_id')
      .select('o.id')
      .where('c.cnpj', '=', '12ABC34501DE35')
      .executeTakeFirstOrThrow();
    const outside = await step(tokens.partnerAdmin, 'substabelecidos', SUB, 'ofertas/produtos', {
      ofertas: [{ oferta: foreignOffer.id, comissao: '5', inicio: TODAY }],
    });
    expect(outside.json.erros.ofertas).toEqual([OFFER_MESSAGES.outsidePartner]);
    const ok = await step(tokens.partnerAdmin, 'substabelecidos', SUB, 'ofertas/produtos', {
      ofertas: [
        { oferta: res.id, comissao: '12,5', inicio: TODAY },
        { oferta: offerOf('VEU').id, comissao: '15', inicio: TODAY },
      ],
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  });

  it('activates: derived offers, an administrator who sells them at the sub’s remuneration, the partner’s admins linked', async () => {
    expect((await step(tokens.partnerAdmin, 'substabelecidos', SUB, 'administrador/usuario', admin)).status).toBe(200);
    const done = await confirm(tokens.partnerAdmin, 'substabelecidos', SUB);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const sub = await db.selectFrom('companies').selectAll().where('cnpj', '=', SUB).executeTakeFirstOrThrow();
    const horizonte = await db.selectFrom('companies').select('id').where('cnpj', '=', HORIZONTE).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ tipo: 'SUBSTABELECIDO', parent_id: horizonte.id, corretora: false, susep: null });
    const derived = await db
      .selectFrom('offers')
      .select(['parent_offer_id', 'comissao_centesimos'])
      .where('company_id', '=', sub.id)
      .orderBy('parent_offer_id')
      .execute();
    expect(derived).toEqual([
      { parent_offer_id: offerOf('RES').id, comissao_centesimos: 12_50 },
      { parent_offer_id: offerOf('VEU').id, comissao_centesimos: 15_00 },
    ]);
    const user = await db.selectFrom('users').selectAll().where('email', '=', admin.email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ profile: 'substabelecido', status: 'PENDENTE' });
    const ops = (await db.selectFrom('user_operations').select('operation').where('user_id', '=', user.id).execute()).map(
      (o) => o.operation,
    );
    expect(ops).toEqual(expect.arrayContaining(['COTAR_VENDER', 'GERENCIAR_USUARIOS', 'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL']));
    expect(ops).not.toContain('OFERTAS_DISPONIVEIS_SIMULADORES_ITENS_PESSOAIS');
    const linked = await db.selectFrom('user_companies').select('user_id').where('company_id', '=', sub.id).execute();
    expect(linked.map((l) => l.user_id)).toContain(await idOf('parceiro.admin@parceiro.demo'));

    // After the first access, the sub's administrator sells exactly the sub's offers, at its remuneration.
    await db
      .updateTable('users')
      .set({ status: 'ATIVO', password_hash: await hashPassword(DEMO_PASSWORD) })
      .where('id', '=', user.id)
      .execute();
    const seller = await loadV2User(db, (await findUserByEmail(db, admin.email))!, { fullyAuthenticated: true });
    const offers = await sellableOffers(db, seller);
    expect(offers.map((o) => [o.code, o.commissionPercent, o.companyName])).toEqual([
      ['RES', 12.5, 'Campos'],
      ['VEU', 15, 'Campos'],
    ]);
    const sale = await sellResidential(db, { email: admin.email });
    const quote = await db
      .selectFrom('quotes')
      .select(['comissao_centesimos', 'company_id', 'offer_id'])
      .where('nr_cotacao', '=', sale.nrCotacao)
      .executeTakeFirstOrThrow();
    expect(quote).toMatchObject({ comissao_centesimos: 12_50, company_id: sub.id });
    // Vale Verde, registered before substabelecidos had offers of their own, still sells its partner's.
    const valeVerde = await loadV2User(db, (await findUserByEmail(db, 'substabelecido@parceiro.demo'))!, { fullyAuthenticated: true });
    expect((await sellableOffers(db, valeVerde)).map((o) => o.code).sort()).toEqual(['IPU', 'RES', 'VEU']);
  });

  it('a partner’s offer is not lowered below a derived one, from the edit or the offers admin', async () => {
    const res = offerOf('RES');
    const lowered = await call('PUT', `/api/bff/v1/ofertas/${res.id}`, {
      headers: as(tokens.admin),
      body: {
        nome: 'Residencial — Horizonte',
        empresas: [await companyId(HORIZONTE)],
        vigenciaInicio: '2025-01-01',
        vigenciaFim: '2027-12-31',
        comissao: '10,00',
        ativo: true,
      },
    });
    expect(lowered.status).toBe(400);
    expect(lowered.json.message).toContain('Campos (12,50%)');
    const edited = await step(
      tokens.admin,
      'parceiros',
      HORIZONTE,
      'ofertas/produtos',
      { ofertas: [{ simulador: 'RES', comissao: '10', inicio: '2025-01-01' }] },
      'editar',
    );
    expect(edited.status).toBe(400);
    expect(edited.json.erros.comissao_RES).toEqual([OFFER_MESSAGES.belowSubs('Campos (12,50%)')]);
  });
});

describe('editing an active company', () => {
  it('starts from the company’s data, saves the changed sections in one go and logs which', async () => {
    const moved = {
      cep: '04538-133',
      logradouro: 'Avenida Brigadeiro Faria Lima',
      numero: '3477',
      complemento: '',
      bairro: 'Itaim Bibi',
      cidade: 'São Paulo',
      uf: 'SP',
    };
    const saved = await step(tokens.admin, 'parceiros', HORIZONTE, 'endereco/sede', moved, 'editar');
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    // The CNPJ of an active company does not change, whatever is posted.
    const fixed = await step(
      tokens.admin,
      'parceiros',
      HORIZONTE,
      'empresa/dados',
      {
        ...company('55666777000181').empresa,
        susep: '202031234',
        razaoSocial: 'Corretora Horizonte Seguros S.A.',
        nomeFantasia: 'Horizonte Seguros',
      },
      'editar',
    );
    expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
    expect((await step(tokens.admin, 'parceiros', HORIZONTE, 'administrador/usuario', {}, 'editar')).status).toBe(409);
    const before = await db.selectFrom('companies').selectAll().where('cnpj', '=', HORIZONTE).executeTakeFirstOrThrow();
    expect(before.endereco).toMatchObject({ logradouro: 'Avenida Paulista' });
    const done = await confirm(tokens.admin, 'parceiros', HORIZONTE, 'editar');
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const after = await db.selectFrom('companies').selectAll().where('cnpj', '=', HORIZONTE).executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      cnpj: HORIZONTE,
      razao_social: 'Corretora Horizonte Seguros S.A.',
      endereco: expect.objectContaining({ cep: '04538133' }),
    });
    const event = await db.selectFrom('access_events').select('detalhe').where('event', '=', 'PARCEIRO_ALTERADO').executeTakeFirstOrThrow();
    expect(event.detalhe).toContain('seções: dados da empresa, endereço da sede');
    expect(await draftOf(HORIZONTE, 'editar')).toBeUndefined();
  });

  it('a partner sells through the active channel of its company step, and its substabelecidos follow it', async () => {
    const channelOf = async (cnpj: string) =>
      (
        await db
          .selectFrom('companies as c')
          .innerJoin('channels as ch', 'ch.id', 'c.channel_id')
          .select('ch.codigo')
          .where('c.cnpj', '=', cnpj)
          .executeTakeFirstOrThrow()
      ).codigo;
    expect([await channelOf(HORIZONTE), await channelOf(VALE_VERDE)]).toEqual(['portal', 'portal']);
    const current = (await call('GET', `/api/bff/v1/parceiros/${HORIZONTE}`, { headers: as(tokens.admin) })).json.dado.empresa;
    const empresa = { ...current, corretora: current.corretora ? 'sim' : '' };
    await db
      .insertInto('channels')
      .values({ codigo: 'fechado', nome: 'Canal Fechado', tipo: 'varejo', parent_id: null, status: 'INATIVO' })
      .execute();
    const closed = await step(tokens.admin, 'parceiros', HORIZONTE, 'empresa/dados', { ...empresa, canal: 'fechado' }, 'editar');
    expect([closed.status, closed.json.erros]).toEqual([400, { canal: [COMPANY_FORM_MESSAGES.canal] }]);
    const moved = await step(tokens.admin, 'parceiros', HORIZONTE, 'empresa/dados', { ...empresa, canal: 'varejo' }, 'editar');
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect((await confirm(tokens.admin, 'parceiros', HORIZONTE, 'editar')).status).toBe(200);
    expect([await channelOf(HORIZONTE), await channelOf(VALE_VERDE)]).toEqual(['varejo', 'varejo']);
    // Back where the other tests expect it.
    await step(tokens.admin, 'parceiros', HORIZONTE, 'empresa/dados', { ...empresa, canal: 'portal' }, 'editar');
    expect((await confirm(tokens.admin, 'parceiros', HORIZONTE, 'editar')).status).toBe(200);
    expect([await channelOf(HORIZONTE), await channelOf(VALE_VERDE)]).toEqual(['portal', 'portal']);
    await db.deleteFrom('channels').where('codigo', '=', 'fechado').execute();
  });

  it('a partner’s administrator edits a sub under their partner, not one elsewhere, and never a partner', async () => {
    expect(
      (
        await step(
          tokens.partnerAdmin,
          'substabelecidos',
          VALE_VERDE,
          'contatos/comercial',
          { email: 'novo@valeverde.com.br', telefone: '3432105001', emailFinanceiro: 'fin@valeverde.com.br' },
          'editar',
        )
      ).status,
    ).toBe(200);
    expect((await step(tokens.partnerAdmin, 'parceiros', HORIZONTE, 'contatos/comercial', {}, 'editar')).status).toBe(403);
    expect((await call('GET', `/api/bff/v1/substabelecidos/${HORIZONTE}`, { headers: as(tokens.partnerAdmin) })).status).toBe(404);
  });
});

describe('the lists', () => {
  const list = async (token: string, kind: Kind, query = '') => call('GET', `/api/bff/v1/${kind}?${query}`, { headers: as(token) });

  it('filter by CNPJ (mask or not, alphanumeric too), name and status; drafts are listed as em cadastro', async () => {
    const all = await list(tokens.admin, 'parceiros');
    expect(all.status).toBe(200);
    expect(all.json.dado.content.map((r: { nomeFantasia: string }) => r.nomeFantasia)).toEqual(
      expect.arrayContaining(['Aurora Seguros', 'Horizonte Seguros']),
    );
    expect((await list(tokens.admin, 'parceiros', 'cnpj=12.abc')).json.dado.content.map((r: { cnpj: string }) => r.cnpj)).toEqual([
      '12ABC34501DE35',
    ]);
    expect((await list(tokens.admin, 'parceiros', 'cnpj=11.222.333%2F0001-81')).json.dado.totalElements).toBe(1);
    expect((await list(tokens.admin, 'parceiros', 'nome=horizonte')).json.dado.content[0]).toMatchObject({
      cnpj: HORIZONTE,
      substabelecidos: 2,
      status: 'ATIVO',
    });
    expect(
      (
        await step(
          tokens.admin,
          'parceiros',
          '19131243000197',
          'empresa/dados',
          company('19131243000197', { nomeFantasia: 'Boreal', susep: '9988776' }).empresa,
        )
      ).status,
    ).toBe(200);
    const drafts = (await list(tokens.admin, 'parceiros', 'status=em-cadastro')).json.dado.content;
    expect(drafts).toEqual([
      expect.objectContaining({ cnpj: '19131243000197', nomeFantasia: 'Boreal', status: 'EM_CADASTRO', ofertas: 0 }),
    ]);
    expect((await list(tokens.admin, 'parceiros', 'status=x')).status).toBe(400);
    expect((await list(tokens.admin, 'parceiros', 'nome=%25')).json.dado.totalElements).toBe(0);
  });

  it('shows each actor its own: ADMIN every sub, a partner’s administrator those under its partner; sellers none', async () => {
    const mine = (await list(tokens.partnerAdmin, 'substabelecidos')).json.dado.content.map((r: { cnpj: string }) => r.cnpj).sort();
    expect(mine).toEqual([VALE_VERDE, '98765432000198'].sort());
    expect((await list(tokens.admin, 'substabelecidos')).json.dado.totalElements).toBeGreaterThanOrEqual(2);
    expect((await list(tokens.partnerAdmin, 'parceiros')).status).toBe(403);
    expect((await list(tokens.partner, 'substabelecidos')).status).toBe(403);
    expect((await list(tokens.sub, 'substabelecidos')).status).toBe(403);
  });
});

describe('suspension', () => {
  it('needs a reason; the sub’s users are signed out at once and refused at sign-in; its history stays; reactivation lets them back', async () => {
    const subToken = await v2Token('substabelecido@parceiro.demo');
    const quotesBefore = await db
      .selectFrom('quotes as q')
      .innerJoin('companies as c', 'c.id', 'q.company_id')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('c.cnpj', '=', VALE_VERDE)
      .executeTakeFirstOrThrow();
    const noReason = await call('PUT', `/api/bff/v1/substabelecidos/${VALE_VERDE}/situacao`, {
      headers: as(tokens.partnerAdmin),
      body: { situacao: 'SUSPENSO' },
    });
    expect(noReason.status).toBe(400);
    const suspended = await call('PUT', `/api/bff/v1/substabelecidos/${VALE_VERDE}/situacao`, {
      headers: as(tokens.partnerAdmin),
      body: { situacao: 'SUSPENSO', motivo: 'Pendência cadastral na SUSEP' },
    });
    expect(suspended.status, JSON.stringify(suspended.json)).toBe(200);
    expect(suspended.json.dado.usuariosDesconectados).toBe(1); // the partner's admin works for Horizonte too
    expect((await call('GET', '/api/bff/v1/usuario', { headers: as(subToken) })).status).toBe(401);
    const refused = await call('POST', '/api/gateway/login', {
      body: { userName: 'substabelecido@parceiro.demo', password: DEMO_PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(SIGN_IN_SUSPENDED);
    expect((await call('GET', '/api/bff/v1/usuario', { headers: as(tokens.partnerAdmin) })).status).toBe(200);
    const quotesAfter = await db
      .selectFrom('quotes as q')
      .innerJoin('companies as c', 'c.id', 'q.company_id')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('c.cnpj', '=', VALE_VERDE)
      .executeTakeFirstOrThrow();
    expect(quotesAfter.n).toBe(quotesBefore.n);
    expect(
      (
        await call('PUT', `/api/bff/v1/substabelecidos/${VALE_VERDE}/situacao`, {
          headers: as(tokens.partnerAdmin),
          body: { situacao: 'SUSPENSO', motivo: 'De novo, por engano' },
        })
      ).status,
    ).toBe(409);
    const event = await db
      .selectFrom('access_events')
      .select('detalhe')
      .where('event', '=', 'SUBSTABELECIDO_SUSPENSO')
      .executeTakeFirstOrThrow();
    expect(event.detalhe).toContain('motivo: Pendência cadastral na SUSEP');

    expect(
      (
        await call('PUT', `/api/bff/v1/substabelecidos/${VALE_VERDE}/situacao`, {
          headers: as(tokens.partnerAdmin),
          body: { situacao: 'ATIVO' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'substabelecido@parceiro.demo', password: DEMO_PASSWORD } })).status,
    ).toBe(200);
  });

  it('a suspended partner stops its substabelecidos too: their offers are not sold, their users do not sign in — legacy ones included', async () => {
    const suspended = await call('PUT', `/api/bff/v1/parceiros/${HORIZONTE}/situacao`, {
      headers: as(tokens.admin),
      body: { situacao: 'SUSPENSO', motivo: 'Contrato de parceria em revisão' },
    });
    expect(suspended.status, JSON.stringify(suspended.json)).toBe(200);
    const admin = await loadV2User(db, (await findUserByEmail(db, 'admin@seguradora.demo'))!, { fullyAuthenticated: true });
    const companies = new Set((await sellableOffers(db, admin)).map((o) => o.companyName));
    expect(companies.has('Horizonte Seguros')).toBe(false);
    expect(companies.has('Campos')).toBe(false); // the derived offers of its substabelecido
    expect(companies.has('Aurora Seguros')).toBe(true);
    for (const userName of ['parceiro@parceiro.demo', 'sergio@campos.com.br', 'parceiro.admin@parceiro.demo'])
      expect((await call('POST', '/api/gateway/login', { body: { userName, password: DEMO_PASSWORD } })).status, userName).toBe(403);
    expect(
      (await call('POST', '/api/plataforma/v1/login', { body: { user_name: 'vendedor@legado.demo', password: DEMO_PASSWORD } })).status,
    ).toBe(403);
    // The insurer's admin signs in whatever happens to partners.
    expect((await call('POST', '/api/gateway/login', { body: { userName: 'admin', password: DEMO_PASSWORD } })).status).toBe(200);
    expect(
      (await call('PUT', `/api/bff/v1/parceiros/${HORIZONTE}/situacao`, { headers: as(tokens.admin), body: { situacao: 'ATIVO' } })).status,
    ).toBe(200);
    expect(
      (await call('POST', '/api/gateway/login', { body: { userName: 'parceiro@parceiro.demo', password: DEMO_PASSWORD } })).status,
    ).toBe(200);
  });
});

describe('under random input, signed in', () => {
  const TABLES = ['companies', 'company_drafts', 'offers', 'users', 'user_companies', 'sessions', 'emails'];
  const fingerprint = () => tablesFingerprint(db, TABLES);
  const value = fc.oneof(
    hostileText(),
    fc.integer(),
    fc.constant(null),
    fc.constantFrom(
      '',
      'sim',
      'CONTA',
      'PIX',
      '341',
      '1234',
      HORIZONTE,
      '12ABC34501DE35',
      'RES',
      '20,00',
      '2026-07-01',
      'SP',
      'SUSPENSO',
      'ATIVO',
    ),
  );
  const body = fc.oneof(
    fc.dictionary(
      fc.constantFrom(
        'cnpj',
        'razaoSocial',
        'nomeFantasia',
        'corretora',
        'susep',
        'parceiro',
        'cep',
        'uf',
        'nome',
        'cpf',
        'email',
        'celular',
        'tipo',
        'banco',
        'titular',
        'chave',
        'ofertas',
        'situacao',
        'motivo',
      ),
      fc.oneof(
        value,
        fc.array(fc.oneof(value, fc.record({ simulador: value, oferta: value, comissao: value, inicio: value })), { maxLength: 3 }),
      ),
    ),
    fc.anything(),
  );

  it('every step, confirmation and status call answers below 500, and a refused one changes nothing', async () => {
    const screens = [
      'empresa/dados',
      'endereco/sede',
      'contatos/responsavel',
      'contatos/comercial',
      'financeiro/conta',
      'ofertas/produtos',
      'administrador/usuario',
      'x/y',
    ];
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(...screens),
        fc.constantFrom<Kind>('parceiros', 'substabelecidos'),
        fc.constantFrom(HORIZONTE, VALE_VERDE, '19131243000197', '11.222.333-0001', 'abc'),
        fc.constantFrom('novo', 'editar', 'x'),
        fc.constantFrom<'step' | 'confirm' | 'status'>('step', 'step', 'step', 'confirm', 'status'),
        fc.constantFrom<'admin' | 'partnerAdmin'>('admin', 'partnerAdmin'),
        async (payload, screen, kind, cnpj, acao, what, who) => {
          const before = await fingerprint();
          const headers = as(tokens[who]);
          const answer =
            what === 'step'
              ? await call('PUT', `/api/bff/v1/${kind}/${encodeURIComponent(cnpj)}/etapas/${screen}?acao=${acao}`, {
                  headers,
                  body: payload,
                })
              : what === 'confirm'
                ? await call('POST', `/api/bff/v1/${kind}/${encodeURIComponent(cnpj)}/confirmacao?acao=${acao}`, { headers, body: payload })
                : await call('PUT', `/api/bff/v1/${kind}/${encodeURIComponent(cnpj)}/situacao`, { headers, body: payload });
          expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(500);
          if (answer.status >= 400) expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  }, 240_000);

  it('two activations of different CNPJs with one SUSEP registration at once: one company, the other a 409', async () => {
    const ids = ['44555666000181', '77888999000181'];
    for (const [i, cnpj] of ids.entries()) {
      const answers = company(cnpj, { susep: '31415926' });
      for (const [screen, key] of STEPS) expect((await step(tokens.admin, 'parceiros', cnpj, screen, answers[key])).status).toBe(200);
      expect(
        (
          await step(tokens.admin, 'parceiros', cnpj, 'ofertas/produtos', {
            ofertas: [{ simulador: 'RES', comissao: '10', inicio: TODAY }],
          })
        ).status,
      ).toBe(200);
      const admin = {
        cpf: ['61827364530', '72938475640'][i],
        nome: 'Pessoa Corrida Teste',
        email: `corrida${i}@exemplo.com.br`,
        celular: '(11) 95555-0000',
      };
      expect((await step(tokens.admin, 'parceiros', cnpj, 'administrador/usuario', admin)).status).toBe(200);
    }
    const answers = await Promise.all(ids.map((cnpj) => confirm(tokens.admin, 'parceiros', cnpj)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.message).toBe(COMPANY_FORM_MESSAGES.duplicateSusep);
    expect((await db.selectFrom('companies').select('id').where('susep', '=', '31415926').execute()).length).toBe(1);
  });
});
