import * as z from 'zod/mini';
import { canV2, type V2Rule } from './permissions';
import { addressSchema, INSURED_MAX_LENGTH } from './products/insured';
import { addressLine } from './quote-summary';
import { listHref, oneOf, optionalField, pageField } from './list-query';
import { formText, list, managedCompanies, type FieldErrors, type UserStatusCode, type V2Actor } from './user-admin';
import { normalizeCnpj } from './validators';

/*
 * Points of sale (issue 17, decision 051), pure: who manages them, the form's schema, which sellers a
 * save moves, when a point of sale may be deactivated, and where a sale is made. The pages, the API
 * and the service ask these rules; the service hands them what the database says.
 *
 *   Who   ADMIN every company; PARCEIRO_ADMIN the companies they administer; a PARCEIRO or
 *         SUBSTABELECIDO holding GERENCIAR_PONTO_VENDA their own company — the companies of
 *         `managedCompanies`, the user administration's own rule. Anything else is a 404.
 *   Who works there  the company's v2 users, put there (users.point_of_sale_id) only by whoever may
 *         change them (`mayManage`): nobody moves a user they could not edit.
 *   Status  an INATIVO point of sale takes no new sales and no new sellers; it is deactivated only
 *         once no active v2 seller is left there (they are moved first, in the same form or elsewhere).
 */

// ─── Statuses ────────────────────────────────────────────────────────────────────────────────────

export const POINT_OF_SALE_STATUSES = ['ATIVO', 'INATIVO'] as const;
export type PointOfSaleStatus = (typeof POINT_OF_SALE_STATUSES)[number];
export const POINT_OF_SALE_STATUS_LABELS: Record<PointOfSaleStatus, string> = { ATIVO: 'Ativo', INATIVO: 'Inativo' };
export const POINT_OF_SALE_STATUS_TONES: Record<PointOfSaleStatus, 'success' | 'danger'> = { ATIVO: 'success', INATIVO: 'danger' };
/** The form's values, lower case as the user forms' status. */
export const POINT_OF_SALE_FORM_STATUSES = ['ativo', 'inativo'] as const;

// ─── Who ─────────────────────────────────────────────────────────────────────────────────────────

/** Acesso › Ponto de Venda (SPEC §6): the administrators by profile, anyone else by the operation. */
export const MANAGE_POINTS_OF_SALE: V2Rule = { profiles: ['ADMIN', 'PARCEIRO_ADMIN'], operations: ['GERENCIAR_PONTO_VENDA'] };

export const mayManagePointsOfSale = (actor: V2Actor) =>
  canV2({ profile: actor.profile, cdOperacoes: actor.operations }, MANAGE_POINTS_OF_SALE);

/** May the actor manage the points of sale of this company (the user administration's companies). */
export function managesCompany(actor: V2Actor, companyId: number): boolean {
  if (!mayManagePointsOfSale(actor)) return false;
  const companies = managedCompanies(actor);
  return companies === 'all' || companies.includes(companyId);
}

// ─── Addresses ───────────────────────────────────────────────────────────────────────────────────

export const POINT_OF_SALE_PAGES = {
  consulta: '/v2/ponto-venda/consulta',
  cadastro: '/v2/ponto-venda/cadastro',
  sucesso: '/v2/ponto-venda/sucesso',
} as const;

/** What `{action}` of /v2/ponto-venda/cadastro/{idPontoVenda}/{action} may be (decision 051). */
export const POINT_OF_SALE_ACTIONS = ['visualizar', 'editar'] as const;
export type PointOfSaleAction = (typeof POINT_OF_SALE_ACTIONS)[number];

export const pointOfSalePath = (id: number, action: PointOfSaleAction) => `${POINT_OF_SALE_PAGES.cadastro}/${id}/${action}`;

export const SAVED_NOTICES = { criado: 'Ponto de venda cadastrado.', alterado: 'Ponto de venda alterado.' } as const;
export type SavedNotice = keyof typeof SAVED_NOTICES;
export const successPath = (id: number, notice: SavedNotice) => `${POINT_OF_SALE_PAGES.sucesso}?pontoVenda=${id}&aviso=${notice}`;

// ─── Messages and schemas ────────────────────────────────────────────────────────────────────────

export const POINT_OF_SALE_MESSAGES = {
  forbidden: 'Você não tem permissão para gerenciar pontos de venda.',
  notFound: 'Ponto de venda não encontrado entre os que você administra.',
  empresa: 'Selecione uma empresa que você administra.',
  empresaFixa: 'Um ponto de venda não muda de empresa: cadastre outro na empresa desejada.',
  nome: 'Informe o nome do ponto de venda (de 3 a 80 caracteres).',
  codigo: 'Use de 1 a 20 letras, números ou hífens, sem hífen no início ou no fim (ex.: PV-0003).',
  codigoDuplicado: 'Já existe um ponto de venda com este código nesta empresa.',
  status: 'Selecione a situação: ativo ou inativo.',
  vendedor: 'Vendedor inválido.',
  vendedorFora: 'Só podem trabalhar aqui usuários da empresa do ponto de venda que você administra.',
  inativoSemNovos: 'Um ponto de venda inativo não recebe novos vendedores: reative-o antes.',
  comVendedores: (n: number) =>
    `Não é possível desativar: ${n === 1 ? 'há 1 vendedor ativo' : `há ${n} vendedores ativos`} neste ponto de venda. Desmarque-os (eles passam a vender no primeiro ponto ativo da empresa) ou mova-os para outro ponto antes.`,
  vendedoresDeOutros: 'Há vendedores aqui que você não administra: quem os administra precisa movê-los antes.',
} as const;
const M = POINT_OF_SALE_MESSAGES;

const NAME_MAX = 80;
const CODE_PATTERN = /^[A-Z0-9](?:[A-Z0-9-]{0,18}[A-Z0-9])?$/;

/** A code as stored: trimmed and upper-cased, so 'pv-0003' and 'PV-0003' are one code. */
export const normalizeCode = (value: string) => value.trim().toUpperCase();

const trimmed = (max: number, message: string) =>
  z.pipe(
    formText(max * 2, message),
    z.transform((v: string) => v.replace(/\s+/g, ' ').trim()),
  );

const idText = z.pipe(
  z.pipe(
    formText(12, M.vendedor),
    z.transform((v: string) => v.trim()),
  ),
  z.pipe(z.string().check(z.regex(/^[1-9]\d{0,8}$/, M.vendedor)), z.transform(Number)),
);

/**
 * The form (/v2/ponto-venda/cadastro, …/{id}/editar) and the API body: the company's CNPJ, name,
 * code, the address fields of the simulators' cadastro (masks stripped there: the CEP is its digits),
 * the situation and the ids of the users who work there.
 */
export const pointOfSaleSchema = z.object({
  empresa: z.pipe(z.pipe(formText(20, M.empresa), z.transform(normalizeCnpj)), z.string().check(z.regex(/^[0-9A-Z]{12}\d{2}$/, M.empresa))),
  nome: z.pipe(trimmed(NAME_MAX, M.nome), z.string().check(z.minLength(3, M.nome), z.maxLength(NAME_MAX, M.nome))),
  codigo: z.pipe(z.pipe(formText(40, M.codigo), z.transform(normalizeCode)), z.string().check(z.regex(CODE_PATTERN, M.codigo))),
  ...addressSchema.shape,
  status: z.pipe(
    z.pipe(
      formText(20, M.status),
      z.transform((v: string) => v.trim().toLowerCase() || 'ativo'),
    ),
    z.enum(POINT_OF_SALE_FORM_STATUSES, { error: M.status }),
  ),
  vendedores: list(idText, 500, M.vendedor),
});
export type PointOfSaleInput = z.output<typeof pointOfSaleSchema>;

/** The form's fields that hold a list (checkboxes). */
export const POINT_OF_SALE_LISTS = ['vendedores'] as const;

/** The longest text of each field: the inputs' maxlength, so nobody types what the schema refuses. */
export const POINT_OF_SALE_MAX_LENGTH = { ...INSURED_MAX_LENGTH, nome: NAME_MAX, codigo: 20 } as const;

export const storedStatus = (form: (typeof POINT_OF_SALE_FORM_STATUSES)[number]): PointOfSaleStatus =>
  form === 'inativo' ? 'INATIVO' : 'ATIVO';

export interface PointOfSaleAddress {
  cep: string;
  logradouro: string;
  numero: string;
  complemento: string;
  bairro: string;
  cidade: string;
  uf: string;
}

/** The address on one line as every screen shows it; rows made before the address existed say so. */
export const addressText = (address: PointOfSaleAddress | null) =>
  address ? addressLine(address as unknown as Record<string, unknown>) : 'Endereço não informado';

// ─── The list ────────────────────────────────────────────────────────────────────────────────────

export const POINT_OF_SALE_PAGE_SIZE = 10;
export const POINT_OF_SALE_FILTERS = ['empresa', 'busca', 'situacao'] as const;

export const pointOfSaleListQuery = z.object({
  empresa: optionalField(
    z.pipe(
      z.pipe(z.string({ error: 'Empresa inválida.' }).check(z.maxLength(20, 'Empresa inválida.')), z.transform(normalizeCnpj)),
      z.string().check(z.regex(/^[0-9A-Z]{12}\d{2}$/, 'Empresa inválida.')),
    ),
  ),
  busca: optionalField(z.string({ error: 'Busca inválida.' }).check(z.maxLength(NAME_MAX, 'Use no máximo 80 caracteres.'))),
  situacao: optionalField(oneOf(POINT_OF_SALE_STATUSES, 'Situação inválida.', (v) => v.toUpperCase())),
  page: optionalField(pageField('Página inválida.')),
});

export const pointOfSaleListHref = (values: Partial<Record<string, string>>, page = 1) =>
  listHref(POINT_OF_SALE_PAGES.consulta, POINT_OF_SALE_FILTERS, values, page);

// ─── Sellers ─────────────────────────────────────────────────────────────────────────────────────

/** A v2 user who could work at the point of sale, as the rules judge them. */
export interface SellerCandidate {
  id: number;
  status: UserStatusCode;
  /** Where they work now. */
  pointOfSaleId: number | null;
  /** The actor may change them (`mayManage`): only then may a save move them. */
  manageable: boolean;
}

export interface SellerChanges {
  /** Put to work here (from nowhere or from another point of sale). */
  assign: number[];
  /** No longer here: they work nowhere, and sell at the company's first active point of sale. */
  release: number[];
  /** Asked for but not the actor's to move, or not a user of the company at all. */
  refused: number[];
  /** Who works here after the save, moved or not. */
  after: SellerCandidate[];
}

/**
 * What a save asks of the sellers: `wanted` are the ids checked. A user the actor may not change stays
 * where they are whatever the form says (their checkbox is disabled, so it is never sent); asking to
 * bring one here is refused.
 */
export function sellerChanges(
  pointId: number | undefined,
  candidates: readonly SellerCandidate[],
  wanted: readonly number[],
): SellerChanges {
  const asked = new Set(wanted);
  const here = (c: SellerCandidate) => pointId !== undefined && c.pointOfSaleId === pointId;
  const refused = [...asked].filter((id) => {
    const candidate = candidates.find((c) => c.id === id);
    return !candidate || (!candidate.manageable && !here(candidate));
  });
  const assign = candidates.filter((c) => c.manageable && asked.has(c.id) && !here(c)).map((c) => c.id);
  const release = candidates.filter((c) => c.manageable && !asked.has(c.id) && here(c)).map((c) => c.id);
  const after = candidates.filter((c) => (here(c) && !release.includes(c.id)) || assign.includes(c.id));
  return { assign, release, refused, after };
}

/**
 * The problems of a save with these changes: an inactive point of sale takes no new sellers, and is
 * deactivated only once no active seller is left there (INATIVO users keep their link: history).
 */
export function statusProblems(status: PointOfSaleStatus, changes: SellerChanges): FieldErrors {
  const errors: FieldErrors = {};
  if (changes.refused.length > 0) errors.vendedores = [M.vendedorFora];
  if (status !== 'INATIVO') return errors;
  if (changes.assign.length > 0) errors.vendedores = [...(errors.vendedores ?? []), M.inativoSemNovos];
  // Those brought here are told apart above; these were here and would stay.
  const staying = changes.after.filter((c) => c.status !== 'INATIVO' && !changes.assign.includes(c.id));
  if (staying.length > 0) {
    errors.status = [M.comVendedores(staying.length)];
    if (staying.some((c) => !c.manageable)) errors.status.push(M.vendedoresDeOutros);
  }
  return errors;
}

// ─── Where a sale is made ────────────────────────────────────────────────────────────────────────

/**
 * The point of sale of a new sale for a company (decision 045, with 051's status): the seller's own
 * when it is one of the company's and active, else the company's first active one, else none.
 * `points` are the company's, in the order they were created.
 */
export function pointOfSaleForSale<P extends { id: number; status: PointOfSaleStatus }>(
  points: readonly P[],
  sellersPointId: number | null,
): P | undefined {
  const active = points.filter((p) => p.status === 'ATIVO');
  return active.find((p) => p.id === sellersPointId) ?? active[0];
}

/**
 * A point of sale among `points` by the code a filter names: codes are unique per company only, so a
 * company chosen narrows it, and a code that two companies use answers 'ambiguous' without one.
 */
export function pointOfSaleByCode<P extends { code: string; companyId: number }>(
  points: readonly P[],
  code: string,
  companyId?: number,
): P | 'ambiguous' | undefined {
  const found = points.filter((p) => p.code === normalizeCode(code) && (companyId === undefined || p.companyId === companyId));
  return found.length > 1 ? 'ambiguous' : found[0];
}
