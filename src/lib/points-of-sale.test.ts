import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  addressText,
  managesCompany,
  mayManagePointsOfSale,
  POINT_OF_SALE_MESSAGES as M,
  pointOfSaleByCode,
  pointOfSaleForSale,
  pointOfSaleListHref,
  pointOfSaleListQuery,
  pointOfSaleSchema,
  sellerChanges,
  statusProblems,
  type SellerCandidate,
} from './points-of-sale';
import { formErrors, USER_ADMIN_MESSAGES, v2GrantProblems, type V2Actor } from './user-admin';
import { parseListQuery } from './list-query';

const actor = (over: Partial<V2Actor> = {}): V2Actor => ({
  generation: 'v2',
  userId: 1,
  profile: 'PARCEIRO',
  operations: [],
  companyIds: [10],
  ...over,
});

describe('who manages points of sale', () => {
  it.each([
    ['ADMIN', [], true],
    ['PARCEIRO_ADMIN', [], true],
    ['PARCEIRO', ['GERENCIAR_PONTO_VENDA'], true],
    ['SUBSTABELECIDO', ['GERENCIAR_PONTO_VENDA'], true],
    ['PARCEIRO', ['GERENCIAR_USUARIOS', 'METRICAS'], false],
    ['SUBSTABELECIDO', [], false],
  ] as const)('%s holding %j: %s', (profile, operations, allowed) => {
    expect(mayManagePointsOfSale(actor({ profile, operations }))).toBe(allowed);
  });

  it('ADMIN every company; the others the companies they are linked to, and only with the rule', () => {
    expect(managesCompany(actor({ profile: 'ADMIN', companyIds: [] }), 99)).toBe(true);
    expect(managesCompany(actor({ profile: 'PARCEIRO_ADMIN', companyIds: [10, 11] }), 11)).toBe(true);
    expect(managesCompany(actor({ profile: 'PARCEIRO_ADMIN', companyIds: [10, 11] }), 12)).toBe(false);
    expect(managesCompany(actor({ operations: ['GERENCIAR_PONTO_VENDA'] }), 10)).toBe(true);
    expect(managesCompany(actor({ operations: ['GERENCIAR_PONTO_VENDA'] }), 11)).toBe(false);
    // Linked to the company, but without the permission: nothing.
    expect(managesCompany(actor({ operations: ['GERENCIAR_USUARIOS'] }), 10)).toBe(false);
  });
});

const FORM = {
  empresa: '11.222.333/0001-81',
  nome: '  Quiosque   Shopping  Norte ',
  codigo: ' pv-0003 ',
  cep: '02011-000',
  logradouro: 'Avenida Otto Baumgart',
  numero: '500',
  complemento: '',
  bairro: 'Vila Guilherme',
  cidade: 'São Paulo',
  uf: 'sp',
  status: 'ativo',
  vendedores: ['7', '8'],
};

describe('the form’s schema', () => {
  it('strips masks and normalizes: CNPJ and CEP digits, the code upper-cased, the name’s spaces, the UF', () => {
    expect(z.parse(pointOfSaleSchema, FORM)).toEqual({
      empresa: '11222333000181',
      nome: 'Quiosque Shopping Norte',
      codigo: 'PV-0003',
      cep: '02011000',
      logradouro: 'Avenida Otto Baumgart',
      numero: '500',
      complemento: '',
      bairro: 'Vila Guilherme',
      cidade: 'São Paulo',
      uf: 'SP',
      status: 'ativo',
      vendedores: [7, 8],
    });
  });

  it('takes one checkbox or none as a list, and a blank situation as active', () => {
    expect(z.parse(pointOfSaleSchema, { ...FORM, vendedores: '7', status: '' })).toMatchObject({ vendedores: [7], status: 'ativo' });
    expect(z.parse(pointOfSaleSchema, { ...FORM, vendedores: undefined })).toMatchObject({ vendedores: [] });
  });

  it('says in pt-BR what is wrong with each field, never a guess', () => {
    const result = z.safeParse(pointOfSaleSchema, {
      empresa: 'x',
      nome: 'ab',
      codigo: '-PV 3',
      cep: '123',
      logradouro: ' ',
      numero: '',
      bairro: 7,
      uf: 'XX',
      status: 'fechado',
      vendedores: ['0', 'abc'],
    });
    expect(result.success).toBe(false);
    expect(formErrors(result.error!.issues)).toEqual({
      empresa: [M.empresa],
      nome: [M.nome],
      codigo: [M.codigo],
      cep: ['Informe o CEP com 8 dígitos.'],
      logradouro: ['Informe o logradouro.'],
      numero: ['Informe o número.'],
      bairro: ['Informe o bairro.'],
      cidade: ['Informe a cidade.'],
      uf: ['Escolha a UF.'],
      status: [M.status],
      vendedores: [M.vendedor, M.vendedor],
    });
  });

  it.each([
    ['PV-0003', true],
    ['a', true],
    ['LOJA-SP-01', true],
    ['-PV', false],
    ['PV-', false],
    ['PV 01', false],
    ['PV_01', false],
    ['X'.repeat(21), false],
  ])('code %s: %s', (codigo, valid) => {
    expect(z.safeParse(pointOfSaleSchema, { ...FORM, codigo }).success).toBe(valid);
  });

  it('refuses a name over 80 characters and a CEP typed with letters', () => {
    expect(formErrors(z.safeParse(pointOfSaleSchema, { ...FORM, nome: 'L'.repeat(81), cep: 'abcde-fgh' }).error!.issues)).toEqual({
      nome: [M.nome],
      cep: ['Informe o CEP com 8 dígitos.'],
    });
  });
});

describe('the list’s query', () => {
  it('reads filters and the page, a blank field being no filter', () => {
    expect(parseListQuery(pointOfSaleListQuery, new URLSearchParams('empresa=11.222.333/0001-81&busca=&situacao=inativo&page=2'))).toEqual({
      ok: true,
      filters: { empresa: '11222333000181', situacao: 'INATIVO' },
      page: 2,
    });
  });

  it('refuses a bad company, status or page with messages', () => {
    const parsed = parseListQuery(pointOfSaleListQuery, new URLSearchParams('empresa=x&situacao=FECHADO&page=0'));
    expect(parsed).toEqual({
      ok: false,
      errors: { empresa: ['Empresa inválida.'], situacao: ['Situação inválida.'], page: ['Página inválida.'] },
    });
  });

  it('keeps the filters in the address of each page', () => {
    expect(pointOfSaleListHref({ busca: 'Savassi', situacao: '' }, 3)).toBe('/v2/ponto-venda/consulta?busca=Savassi&page=3');
    expect(pointOfSaleListHref({})).toBe('/v2/ponto-venda/consulta');
  });
});

const seller = (id: number, pointOfSaleId: number | null, over: Partial<SellerCandidate> = {}): SellerCandidate => ({
  id,
  status: 'ATIVO',
  pointOfSaleId,
  manageable: true,
  ...over,
});

describe('who works there after a save', () => {
  const candidates = [
    seller(1, 5),
    seller(2, 6),
    seller(3, null),
    seller(4, 5, { manageable: false }),
    seller(5, 6, { manageable: false }),
  ];

  it('brings the checked, releases the unchecked, and leaves whoever the actor may not change where they are', () => {
    const changes = sellerChanges(5, candidates, [2, 3]);
    expect(changes).toMatchObject({ assign: [2, 3], release: [1], refused: [] });
    // User 4 is not the actor's: unchecked (a disabled box is never sent), still here.
    expect(changes.after.map((c) => c.id)).toEqual([2, 3, 4]);
  });

  it('refuses to bring a user the actor may not change, or one not among the company’s', () => {
    expect(sellerChanges(5, candidates, [5, 99]).refused).toEqual([5, 99]);
    // One already here is no change, even when not the actor's.
    expect(sellerChanges(5, candidates, [4]).refused).toEqual([]);
  });

  it('a new point of sale only brings users', () => {
    expect(sellerChanges(undefined, candidates, [1])).toMatchObject({ assign: [1], release: [], refused: [] });
  });
});

describe('deactivating', () => {
  it('is refused while active sellers are left, saying how many and who must move those not the actor’s', () => {
    const keeping = sellerChanges(5, [seller(1, 5), seller(4, 5, { manageable: false })], [1]);
    expect(statusProblems('INATIVO', keeping)).toEqual({ status: [M.comVendedores(2), M.vendedoresDeOutros] });
    expect(M.comVendedores(1)).toContain('há 1 vendedor ativo');
  });

  it('goes through once the sellers are unchecked; users who left keep their link (history)', () => {
    const emptied = sellerChanges(5, [seller(1, 5), seller(2, 5, { status: 'INATIVO' })], []);
    expect(statusProblems('INATIVO', emptied)).toEqual({});
  });

  it('an inactive point of sale takes no new sellers', () => {
    // Only that: the one brought here is not also counted as a seller left behind.
    expect(statusProblems('INATIVO', sellerChanges(5, [seller(3, null)], [3]))).toEqual({ vendedores: [M.inativoSemNovos] });
    expect(statusProblems('ATIVO', sellerChanges(5, [seller(3, null)], [3]))).toEqual({});
  });

  it('nor a user registration: an inactive point of sale is refused unless the user works there already', () => {
    const grant = {
      profile: 'PARCEIRO' as const,
      operations: [],
      companies: [{ id: 10, tipo: 'PARCEIRO' as const }],
      pointOfSaleCompanyId: 10,
    };
    const admin = actor({ profile: 'PARCEIRO_ADMIN' });
    expect(v2GrantProblems(admin, { ...grant, pointOfSaleInactive: true })).toEqual({
      pontoVenda: [USER_ADMIN_MESSAGES.pointOfSaleInactive],
    });
    expect(v2GrantProblems(admin, { ...grant, pointOfSaleInactive: false })).toEqual({});
  });
});

describe('where a sale is made', () => {
  const points = [
    { id: 1, status: 'ATIVO' as const },
    { id: 2, status: 'INATIVO' as const },
    { id: 3, status: 'ATIVO' as const },
  ];

  it.each([
    [3, 3], // the seller's own, active
    [2, 1], // the seller's own is inactive: the company's first active one
    [null, 1], // no point of sale: the first active one
    [99, 1], // another company's: the first active one of this company
  ])('seller at %s → %s', (own, expected) => {
    expect(pointOfSaleForSale(points, own)?.id).toBe(expected);
  });

  it('none when the company has no active point of sale', () => {
    expect(pointOfSaleForSale([{ id: 2, status: 'INATIVO' as const }], 2)).toBeUndefined();
    expect(pointOfSaleForSale([], null)).toBeUndefined();
  });
});

describe('a filter’s point of sale by code', () => {
  const points = [
    { code: 'PV-0001', companyId: 10 },
    { code: 'PV-0001', companyId: 11 },
    { code: 'PV-0002', companyId: 10 },
  ];

  it('finds it in any case, narrowed by the company chosen; a code two companies use needs the company', () => {
    expect(pointOfSaleByCode(points, 'pv-0002')).toEqual(points[2]);
    expect(pointOfSaleByCode(points, 'PV-0001', 11)).toEqual(points[1]);
    expect(pointOfSaleByCode(points, 'PV-0001')).toBe('ambiguous');
    expect(pointOfSaleByCode(points, 'PV-0002', 11)).toBeUndefined();
  });
});

describe('the address on one line', () => {
  it('as the policies print it, or says it is missing', () => {
    expect(
      addressText({
        cep: '01002000',
        logradouro: 'Rua Direita',
        numero: '250',
        complemento: 'Loja 3',
        bairro: 'Sé',
        cidade: 'São Paulo',
        uf: 'SP',
      }),
    ).toBe('Rua Direita, 250, Loja 3 — Sé, São Paulo/SP — CEP 01002-000');
    expect(addressText(null)).toBe('Endereço não informado');
  });
});
