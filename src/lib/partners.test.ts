import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  administratorOperations,
  companiesLetSignIn,
  companyListHref,
  companyOperating,
  COMPANY_STEPS,
  managedPartners,
  mayManageCompany,
  mayOnboard,
  mayOpenSubs,
  maySeeCompany,
  OFFER_MESSAGES,
  offerInForce,
  parseStepAddress,
  partnerOfferProblems,
  pendingStep,
  REMUNERATION_LIMITS,
  remunerationLimit,
  sellingCompanies,
  stepPath,
  stepReachable,
  subOfferProblems,
  SUB_ADMINISTRATOR_OPERATIONS,
  type CompanyActor,
  type CompanyFacts,
} from './partners';
import {
  administratorSchema,
  commercialSchema,
  commissionAccountSchema,
  companyDataSchema,
  companyListQuery,
  isValidSusep,
  offersFromForm,
  partnerOffersSchema,
  readDraft,
  responsibleSchema,
  sectionFormValues,
  sectionInput,
  stepErrors,
  subOffersSchema,
  suspensionSchema,
  COMPANY_FORM_MESSAGES as M,
} from './partner-forms';
import { SIMULATOR_CODES } from './simulators';

const NUMERIC = '11.222.333/0001-81';
const ALPHANUMERIC = '12.ABC.345/01DE-35'; // the Receita Federal's own example of the format of July 2026
const errorsOf = (schema: z.ZodMiniType, input: unknown) => {
  const result = z.safeParse(schema, input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.') || 'form', i.message]));
};

describe('company data (empresa/dados)', () => {
  const company = {
    cnpj: NUMERIC,
    razaoSocial: 'Corretora Exemplo Ltda.',
    nomeFantasia: 'Exemplo',
    corretora: 'sim',
    susep: '20.2031-234',
  };

  it('takes a numeric CNPJ with or without its mask, and keeps its 14 digits; a partner without a channel sells through the portal’s', () => {
    expect(z.parse(companyDataSchema('PARCEIRO'), company)).toEqual({
      ...company,
      cnpj: '11222333000181',
      corretora: true,
      susep: '202031234',
      canal: 'portal',
    });
    expect(z.parse(companyDataSchema('PARCEIRO'), { ...company, canal: 'varejo' }).canal).toBe('varejo');
    expect(errorsOf(companyDataSchema('PARCEIRO'), { ...company, canal: 'Não É Código' })).toEqual({ canal: M.canal });
    expect(z.parse(companyDataSchema('PARCEIRO'), { ...company, cnpj: '11222333000181' }).cnpj).toBe('11222333000181');
  });

  it('takes the alphanumeric CNPJ (July 2026), typed in any case', () => {
    expect(z.parse(companyDataSchema('PARCEIRO'), { ...company, cnpj: ALPHANUMERIC.toLowerCase() }).cnpj).toBe('12ABC34501DE35');
  });

  it.each(['11.222.333/0001-80', '12.ABC.345/01DE-36', '11111111111111', '1122233300018', 'ABCDEFGHIJKLMN', ''])(
    'refuses the CNPJ %j',
    (cnpj) => {
      expect(errorsOf(companyDataSchema('PARCEIRO'), { ...company, cnpj })).toEqual({ cnpj: M.cnpj });
    },
  );

  it('asks the SUSEP registration of a broker only, and checks it when given', () => {
    expect(errorsOf(companyDataSchema('PARCEIRO'), { ...company, susep: '' })).toEqual({ susep: M.susepRequired });
    expect(z.parse(companyDataSchema('PARCEIRO'), { ...company, corretora: '', susep: '' })).toMatchObject({ corretora: false, susep: '' });
    expect(errorsOf(companyDataSchema('PARCEIRO'), { ...company, corretora: '', susep: '12a45' })).toEqual({ susep: M.susep });
    expect([
      isValidSusep('12345'),
      isValidSusep('123456789012345'),
      isValidSusep('1234'),
      isValidSusep('00000'),
      isValidSusep('1234567890123456'),
    ]).toEqual([true, true, false, false, false]);
  });

  it('needs names of sensible lengths, and a substabelecido names its partner', () => {
    expect(errorsOf(companyDataSchema('PARCEIRO'), { ...company, razaoSocial: 'AB', nomeFantasia: ' ' })).toEqual({
      razaoSocial: M.razaoSocial,
      nomeFantasia: M.nomeFantasia,
    });
    expect(errorsOf(companyDataSchema('SUBSTABELECIDO'), company)).toEqual({ parceiro: M.parceiro });
    expect(z.parse(companyDataSchema('SUBSTABELECIDO'), { ...company, parceiro: '11222333000181' }).parceiro).toBe('11222333000181');
  });
});

describe('contacts, account, administrator', () => {
  it('the legal representative: name, CPF, e-mail, mobile and role', () => {
    const ok = {
      nome: 'Roberto Alves',
      cpf: '153.509.460-56',
      email: ' Roberto@Exemplo.com.br',
      celular: '(11) 98765-4321',
      cargo: 'Sócio',
    };
    expect(z.parse(responsibleSchema, ok)).toEqual({ ...ok, cpf: '15350946056', email: 'roberto@exemplo.com.br', celular: '11987654321' });
    expect(
      Object.keys(errorsOf(responsibleSchema, { ...ok, cpf: '153.509.460-57', celular: '(11) 3333-4444', cargo: 'x' })).sort(),
    ).toEqual(['cargo', 'celular', 'cpf']);
  });

  it('commercial contacts take a landline too, and the finance e-mail says which it is', () => {
    expect(z.parse(commercialSchema, { email: 'a@b.com.br', telefone: '(11) 3333-4444', emailFinanceiro: 'f@b.com.br' }).telefone).toBe(
      '1133334444',
    );
    expect(errorsOf(commercialSchema, { email: 'a@b.com.br', telefone: '333', emailFinanceiro: 'f@' })).toEqual({
      telefone: M.telefone,
      emailFinanceiro: M.emailFinanceiro,
    });
  });

  it('commissions go to the company: an account or Pix key of its own CNPJ, never a person’s', () => {
    const schema = commissionAccountSchema('11222333000181');
    const account = { tipo: 'CONTA', banco: '341', agencia: '1234', conta: '12345-6', tipoConta: 'corrente', titular: NUMERIC };
    expect(z.parse(schema, account)).toMatchObject({ titular: '11222333000181', conta: '123456' });
    expect(errorsOf(schema, { ...account, titular: '153.509.460-56' })).toEqual({
      titular: 'A conta deve ser da empresa: o CPF/CNPJ do titular é diferente da empresa.',
    });
    expect(errorsOf(schema, { tipo: 'PIX', chave: '153.509.460-56' })).toEqual({ chave: 'A chave Pix de CPF/CNPJ deve ser da empresa.' });
    expect(z.parse(schema, { tipo: 'PIX', chave: NUMERIC })).toEqual({ tipo: 'PIX', chave: { type: 'CNPJ', key: '11222333000181' } });
  });

  it('the first administrator: CPF, name, e-mail and mobile', () => {
    expect(Object.keys(errorsOf(administratorSchema, {})).sort()).toEqual(['celular', 'cpf', 'email', 'nome']);
  });

  it('a suspension needs a reason', () => {
    expect(errorsOf(suspensionSchema, { motivo: 'curto' })).toEqual({ motivo: M.motivo });
    expect(z.parse(suspensionSchema, { motivo: '  Contrato   encerrado pelo parceiro ' }).motivo).toBe('Contrato encerrado pelo parceiro');
  });
});

describe('offers and remuneration', () => {
  const ALL = SIMULATOR_CODES.filter((s) => s.v2).map((s) => s.code);

  it('the limits are a table per product line, one for every line', () => {
    expect(new Set(SIMULATOR_CODES.map((s) => s.line))).toEqual(new Set(Object.keys(REMUNERATION_LIMITS)));
    expect(remunerationLimit('RES')).toBe(35_00);
    expect(remunerationLimit('AFU')).toBe(20_00);
    expect(remunerationLimit('XYZ')).toBeUndefined();
  });

  it('a partner’s remuneration stays within its product’s limit', () => {
    expect(partnerOfferProblems([{ simulador: 'RES', comissao: 35_00, inicio: '2026-01-01' }], ALL)).toEqual({});
    expect(partnerOfferProblems([{ simulador: 'AFU', comissao: 20_01, inicio: '2026-01-01' }], ALL)).toEqual({
      comissao_AFU: [OFFER_MESSAGES.aboveLimit('20,00%')],
    });
    expect(partnerOfferProblems([], ALL)).toEqual({ ofertas: [OFFER_MESSAGES.none] });
    expect(partnerOfferProblems([{ simulador: 'EMP', comissao: 10_00, inicio: '2026-01-01' }], ALL)).toEqual({
      ofertas: [OFFER_MESSAGES.unknownProduct],
    });
  });

  it('a partner’s remuneration is not lowered below a substabelecido’s derived offer', () => {
    const subs = new Map([['RES', [{ nome: 'Vale Verde', comissao: 18_00 }]]]);
    expect(partnerOfferProblems([{ simulador: 'RES', comissao: 15_00, inicio: '2026-01-01' }], ALL, { subsAbove: subs })).toEqual({
      comissao_RES: [OFFER_MESSAGES.belowSubs('Vale Verde (18,00%)')],
    });
    expect(partnerOfferProblems([{ simulador: 'RES', comissao: 18_00, inicio: '2026-01-01' }], ALL, { subsAbove: subs })).toEqual({});
  });

  it('a substabelecido picks a subset of its partner’s offers in force, at most at the partner’s remuneration', () => {
    const partner = [
      { nrOferta: 1, comissao: 20_00 },
      { nrOferta: 2, comissao: 15_00 },
    ];
    expect(subOfferProblems([{ oferta: 1, comissao: 20_00, inicio: '2026-01-01' }], partner)).toEqual({});
    expect(subOfferProblems([{ oferta: 2, comissao: 15_01, inicio: '2026-01-01' }], partner)).toEqual({
      comissao_2: [OFFER_MESSAGES.aboveParent('15,00%')],
    });
    expect(subOfferProblems([{ oferta: 3, comissao: 1_00, inicio: '2026-01-01' }], partner)).toEqual({
      ofertas: [OFFER_MESSAGES.outsidePartner],
    });
    expect(subOfferProblems([], partner)).toEqual({ ofertas: [OFFER_MESSAGES.noneSub] });
    expect(subOfferProblems([], partner, { allowNone: true })).toEqual({});
  });

  it('the offers form becomes the API’s list, and its errors land under each row’s field', () => {
    const values = {
      produto: ['RES', 'VEU'],
      comissao_RES: '12,5',
      inicio_RES: '2026-07-01',
      comissao_VEU: '130',
      inicio_VEU: '2026-13-01',
    };
    const list = offersFromForm('PARCEIRO', values);
    expect(list).toEqual([
      { simulador: 'RES', comissao: '12,5', inicio: '2026-07-01' },
      { simulador: 'VEU', comissao: '130', inicio: '2026-13-01' },
    ]);
    const result = z.safeParse(partnerOffersSchema, list);
    expect(result.success).toBe(false);
    if (!result.success)
      expect(stepErrors('PARCEIRO', 'ofertas', result.error.issues, list)).toEqual({ comissao_VEU: [M.comissao], inicio_VEU: [M.inicio] });
    expect(z.parse(partnerOffersSchema, [list[0]])).toEqual([{ simulador: 'RES', comissao: 12_50, inicio: '2026-07-01' }]);
    expect(errorsOf(partnerOffersSchema, [list[0], list[0]])).toEqual({ form: M.repeated });
    expect(z.parse(subOffersSchema, offersFromForm('SUBSTABELECIDO', { oferta: '7', comissao_7: '10', inicio_7: '2026-07-01' }))).toEqual([
      { oferta: 7, comissao: 10_00, inicio: '2026-07-01' },
    ]);
  });

  it('a stored section reads back through its schema; one that no longer passes is dropped', () => {
    const stored = {
      ofertas: [{ simulador: 'RES', comissao: 12_50, inicio: '2026-07-01' }],
      conta: { tipo: 'PIX', chave: { type: 'CNPJ', key: '11222333000181' } },
      endereco: { cep: 'x' },
    };
    expect(sectionInput('ofertas', stored.ofertas)).toEqual([{ simulador: 'RES', comissao: '12,50', inicio: '2026-07-01' }]);
    expect(readDraft('PARCEIRO', stored, '11222333000181')).toEqual({ ofertas: stored.ofertas, conta: stored.conta });
    // The account of another CNPJ is no longer the company's.
    expect(readDraft('PARCEIRO', stored, '12ABC34501DE35')).toEqual({ ofertas: stored.ofertas });
    expect(sectionFormValues('PARCEIRO', 'ofertas', stored.ofertas)).toEqual({
      produto: ['RES'],
      comissao_RES: '12,50',
      inicio_RES: '2026-07-01',
    });
    expect(sectionFormValues('PARCEIRO', 'empresa', { cnpj: '11222333000181', corretora: true, susep: '1' })).toMatchObject({
      cnpj: NUMERIC,
      corretora: 'sim',
    });
  });
});

describe('steps', () => {
  it('every address names a known screen, its own sub-step, a CNPJ and an action; anything else is not one', () => {
    expect(parseStepAddress('empresa')).toMatchObject({ step: { key: 'empresa' } });
    expect(parseStepAddress('contatos/12ABC34501DE35/comercial/editar')).toMatchObject({
      step: { key: 'comercial' },
      cnpj: '12ABC34501DE35',
      action: 'editar',
    });
    for (const bad of [
      'desconhecida',
      'contatos/11222333000181/sede/novo',
      'empresa/11222333000181/dados/apagar',
      'empresa/11.222.333-0001/dados/novo',
      'empresa/x',
      '',
    ])
      expect(parseStepAddress(bad), bad).toBeUndefined();
    for (const step of COMPANY_STEPS)
      expect(parseStepAddress(stepPath('PARCEIRO', step.key, '11222333000181', 'novo').replace('/v2/parceiros/etapas/', ''))?.step).toBe(
        step,
      );
  });

  it('a step ahead of the draft goes back to the first one it lacks; an edit never lacks its administrator', () => {
    expect(pendingStep({}, 'novo')).toBe('empresa');
    expect(pendingStep({ empresa: {}, endereco: {} }, 'novo')).toBe('responsavel');
    expect(stepReachable('conta', { empresa: {}, endereco: {} }, 'novo')).toBe(false);
    expect(stepReachable('responsavel', { empresa: {}, endereco: {} }, 'novo')).toBe(true);
    const full = { empresa: {}, endereco: {}, responsavel: {}, comercial: {}, conta: {}, ofertas: [] };
    expect(pendingStep(full, 'novo')).toBe('administrador');
    expect(pendingStep(full, 'editar')).toBe('revisao');
  });

  it('the substabelecidos’ list carries its notice in the address (SPEC /consulta/{action}), the partners’ in the query', () => {
    expect(companyListHref('SUBSTABELECIDO', { nome: 'Vale' }, 2, 'suspenso')).toBe(
      '/v2/substabelecido/consulta/suspenso?nome=Vale&pagina=2',
    );
    expect(companyListHref('PARCEIRO', { status: 'ativo' }, 1, 'cadastrado')).toBe('/v2/parceiros/consulta?status=ativo&aviso=cadastrado');
    expect(companyListHref('PARCEIRO', {})).toBe('/v2/parceiros/consulta');
  });

  it('the list’s filters take a CNPJ with or without mask, alphanumeric too, and refuse a bad status or page', () => {
    expect(z.parse(companyListQuery, { cnpj: '12.abc.345', nome: '', status: 'EM-CADASTRO', pagina: '' })).toEqual({
      cnpj: '12ABC345',
      nome: '',
      status: 'em-cadastro',
      pagina: 1,
    });
    expect(Object.keys(errorsOf(companyListQuery, { cnpj: '11;drop', status: 'x', pagina: '0' })).sort()).toEqual([
      'cnpj',
      'pagina',
      'status',
    ]);
  });
});

describe('who manages which company', () => {
  const HORIZONTE = { id: 1, tipo: 'PARCEIRO' as const, parentId: null };
  const VALE = { id: 2, tipo: 'SUBSTABELECIDO' as const, parentId: 1 };
  const OTHER_SUB = { id: 4, tipo: 'SUBSTABELECIDO' as const, parentId: 3 };
  const actor = (profile: CompanyActor['profile'], operations: string[] = [], companies: CompanyFacts[] = [HORIZONTE]): CompanyActor => ({
    userId: 9,
    profile,
    operations,
    companies,
  });

  it.each([
    ['ADMIN', actor('ADMIN', [], []), 'all', true, true, true, true],
    ['a PARCEIRO_ADMIN of the partner', actor('PARCEIRO_ADMIN'), [1], false, true, true, false],
    ['a PARCEIRO holding GERENCIAR_SUBSTABELECIDO', actor('PARCEIRO', ['GERENCIAR_SUBSTABELECIDO']), [1], false, true, false, false],
    ['a PARCEIRO without it', actor('PARCEIRO', ['COTAR_VENDER']), [], false, false, false, false],
    ['a SUBSTABELECIDO holding it', actor('SUBSTABELECIDO', ['GERENCIAR_SUBSTABELECIDO'], [VALE]), [], false, false, false, false],
  ] as const)('%s', (_, who, partners, partner, sub, onboardSub, otherSub) => {
    expect(managedPartners(who)).toEqual(partners);
    expect(mayManageCompany(who, HORIZONTE)).toBe(partner);
    expect(mayManageCompany(who, VALE)).toBe(sub);
    expect(mayOnboard(who, 'SUBSTABELECIDO')).toBe(onboardSub);
    expect(mayOnboard(who, 'PARCEIRO')).toBe(who.profile === 'ADMIN');
    expect(mayManageCompany(who, OTHER_SUB)).toBe(otherSub);
  });

  it('a substabelecido’s own manager sees its company, read-only; nobody else’s', () => {
    const manager = actor('SUBSTABELECIDO', ['GERENCIAR_SUBSTABELECIDO'], [VALE]);
    expect(mayOpenSubs(manager)).toBe(true);
    expect(maySeeCompany(manager, VALE)).toBe(true);
    expect(mayManageCompany(manager, VALE)).toBe(false);
    expect(maySeeCompany(manager, OTHER_SUB)).toBe(false);
    expect(maySeeCompany(actor('SUBSTABELECIDO', [], [VALE]), VALE)).toBe(false);
  });

  it('the first administrator of a substabelecido sells its products and runs its team; a partner’s holds its profile', () => {
    expect(administratorOperations('PARCEIRO', ['RES'])).toEqual([]);
    expect(administratorOperations('SUBSTABELECIDO', ['RES', 'VEU', 'RES'])).toEqual([
      ...SUB_ADMINISTRATOR_OPERATIONS,
      'OFERTAS_DISPONIVEIS_SIMULADORES_RESIDENCIAL',
      'OFERTAS_DISPONIVEIS_SIMULADORES_VIDAESSENCIALULTRON',
    ]);
  });
});

describe('suspension, as rules', () => {
  it('a company works while it and its partner are active', () => {
    expect(companyOperating({ status: 'ATIVO' })).toBe(true);
    expect(companyOperating({ status: 'SUSPENSO' })).toBe(false);
    expect(companyOperating({ status: 'ATIVO' }, { status: 'SUSPENSO' })).toBe(false);
  });

  it('a user signs in while one of their companies works; a user of none is not held back', () => {
    expect(companiesLetSignIn([])).toBe(true);
    expect(companiesLetSignIn([{ operating: false }])).toBe(false);
    expect(companiesLetSignIn([{ operating: false }, { operating: true }])).toBe(true);
  });

  it('an offer is in force with its company working and, derived, its partner’s offer in force', () => {
    const offer = { ativo: true, vigenciaInicio: '2026-01-01', vigenciaFim: null, companyOperating: true };
    expect(offerInForce(offer, '2026-06-01')).toBe(true);
    expect(offerInForce({ ...offer, companyOperating: false }, '2026-06-01')).toBe(false);
    expect(offerInForce({ ...offer, parent: { ativo: true, vigenciaInicio: '2025-01-01', vigenciaFim: '2026-05-31' } }, '2026-06-01')).toBe(
      false,
    );
    expect(offerInForce({ ...offer, parent: { ativo: false, vigenciaInicio: '2025-01-01', vigenciaFim: null } }, '2026-06-01')).toBe(false);
    expect(offerInForce({ ...offer, parent: { ativo: true, vigenciaInicio: '2025-01-01', vigenciaFim: null } }, '2026-06-01')).toBe(true);
  });

  it('a substabelecido with offers of its own sells exactly those; one without any, its partner’s too', () => {
    expect(sellingCompanies({ id: 2, parentId: 1, hasOwnOffers: true })).toEqual([2]);
    expect(sellingCompanies({ id: 2, parentId: 1, hasOwnOffers: false })).toEqual([2, 1]);
    expect(sellingCompanies({ id: 1, parentId: null, hasOwnOffers: false })).toEqual([1]);
  });
});
