import * as z from 'zod/mini';
import { config } from '../../server/config';
import {
  listPointsOfSale,
  pointOfSaleCompanies,
  pointOfSaleOf,
  savePointOfSale,
  sellerOptions,
  type PointOfSaleRecord,
  type SellerOption,
} from '../../server/services/network/points-of-sale';
import {
  mayManagePointsOfSale,
  POINT_OF_SALE_ACTIONS,
  POINT_OF_SALE_LISTS,
  POINT_OF_SALE_PAGES,
  pointOfSaleListQuery,
  pointOfSalePath,
  pointOfSaleSchema,
  SAVED_NOTICES,
  successPath,
  type PointOfSaleAction,
  type SavedNotice,
} from '../../lib/points-of-sale';
import { formErrors, formValues, type FieldErrors, type V2Actor } from '../../lib/user-admin';
import { pageWithin, parseListQuery, withReadablePage, type Paged } from '../../lib/list-query';
import { pageAccess } from '../../lib/route-guards';
import type { PortalSession } from '../../lib/session';
import { asFieldErrors, adminContext, readForm, type Routed } from '../controller.server';

/*
 * The point of sale pages (issue 17, decision 051): plain GET and POST forms that work without
 * JavaScript. A save redirects (303) to the success page; a refusal renders the form again with its
 * values and pt-BR messages (400, or 409 for a code the company has or a point of sale that still has
 * sellers) — never a 500 for bad input. A point of sale the viewer does not manage, an unknown action
 * or an address that names none is the 404 page.
 */

type Values = Record<string, string | string[]>;

async function actorOf(session: PortalSession) {
  const { db, actor } = await adminContext(session, 'v2');
  return { db, actor: actor as V2Actor };
}

// ─── The list ────────────────────────────────────────────────────────────────────────────────────

export interface PointOfSaleListProps {
  rows: PointOfSaleRecord[];
  companies: { id: number; cnpj: string; nome: string }[];
  values: { empresa: string; busca: string; situacao: string };
  errors?: FieldErrors;
  paged: Paged<PointOfSaleRecord>;
}

/** /v2/ponto-venda/consulta: GET filters (company, name or code, status) and the page (?page=N). */
export async function pointOfSaleListPage(session: PortalSession, url: URL): Promise<Routed<PointOfSaleListProps>> {
  const { db, actor } = await actorOf(session);
  if (!mayManagePointsOfSale(actor)) return { kind: 'not-found' };
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const params = withReadablePage(url.searchParams);
  const raw = Object.fromEntries(['empresa', 'busca', 'situacao', 'page'].map((k) => [k, params.get(k) ?? '']));
  const values = { empresa: raw.empresa!, busca: raw.busca!, situacao: raw.situacao!.toUpperCase() };
  const companies = await pointOfSaleCompanies(db, actor);
  const parsed = parseListQuery(pointOfSaleListQuery, raw);
  if (!parsed.ok) {
    const empty = { content: [], totalElements: 0, totalPages: 0, page: 1 };
    return { kind: 'page', status: 400, props: { rows: [], companies, values, errors: parsed.errors, paged: empty } };
  }
  const paged = await pageWithin(parsed.page, (page) => listPointsOfSale(db, actor, parsed.filters, page));
  return { kind: 'page', status: 200, props: { rows: paged.content, companies, values, paged } };
}

// ─── The form ────────────────────────────────────────────────────────────────────────────────────

export interface SellerGroup {
  empresa: { id: number; cnpj: string; nome: string };
  sellers: SellerOption[];
}

export interface PointOfSaleFormProps {
  action: 'novo' | PointOfSaleAction;
  record?: PointOfSaleRecord;
  /** The companies a new point of sale may belong to. */
  companies: { id: number; cnpj: string; nome: string }[];
  /** The v2 users who may work there, by company (a new one: each company's; else its company's). */
  sellerGroups: SellerGroup[];
  /** Legacy users who work there: shown, managed in the legacy portal. */
  legacySellers: SellerOption[];
  formAction: string;
  values: Values;
  errors?: FieldErrors;
}

const valuesOf = (record: PointOfSaleRecord, sellers: readonly SellerOption[]): Values => ({
  empresa: record.empresa.cnpj,
  nome: record.nome,
  codigo: record.codigo,
  cep: record.endereco?.cep.replace(/^(\d{5})(\d{3})$/, '$1-$2') ?? '',
  logradouro: record.endereco?.logradouro ?? '',
  numero: record.endereco?.numero ?? '',
  complemento: record.endereco?.complemento ?? '',
  bairro: record.endereco?.bairro ?? '',
  cidade: record.endereco?.cidade ?? '',
  uf: record.endereco?.uf ?? '',
  status: record.status.toLowerCase(),
  vendedores: sellers.filter((s) => s.generation === 'v2' && s.pointOfSaleId === record.id).map((s) => String(s.id)),
});

const isId = (value: string | undefined) => /^[1-9]\d{0,8}$/.test(value ?? '');

/**
 * /v2/ponto-venda/cadastro (a new point of sale) and /v2/ponto-venda/cadastro/{idPontoVenda}/{action}
 * with action visualizar (read only) or editar. A POST saves and redirects to the success page.
 */
export async function pointOfSaleFormPage(
  session: PortalSession,
  params: { id?: string; action?: string },
  request: Request,
  ip: string,
): Promise<Routed<PointOfSaleFormProps>> {
  const { db, actor } = await actorOf(session);
  if (!mayManagePointsOfSale(actor)) return { kind: 'not-found' };
  const isNew = params.id === undefined && params.action === undefined;
  const action = isNew ? 'novo' : POINT_OF_SALE_ACTIONS.find((a) => a === params.action);
  if (!action) return { kind: 'not-found' };
  let record: PointOfSaleRecord | undefined;
  if (!isNew) {
    record = isId(params.id) ? await pointOfSaleOf(db, actor, Number(params.id)) : undefined;
    if (!record) return { kind: 'not-found' };
  }
  const companies = record ? [record.empresa] : await pointOfSaleCompanies(db, actor);
  const options = await sellerOptions(
    db,
    actor,
    companies.map((c) => c.id),
    record?.id,
  );
  const sellerGroups = companies.map((empresa) => ({
    empresa,
    sellers: options.filter(
      (s) => s.generation === 'v2' && (s.companyIds.includes(empresa.id) || (record && s.pointOfSaleId === record.id)),
    ),
  }));
  const props: PointOfSaleFormProps = {
    action,
    record,
    companies,
    sellerGroups,
    legacySellers: options.filter((s) => s.generation === 'v1'),
    formAction: record ? pointOfSalePath(record.id, 'editar') : POINT_OF_SALE_PAGES.cadastro,
    values: record
      ? valuesOf(record, options)
      : { empresa: companies.length === 1 ? companies[0]!.cnpj : '', status: 'ativo', uf: '', vendedores: [] },
  };
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };
  if (action === 'visualizar') return { kind: 'page', status: 405, props };

  const values = formValues(await readForm(request), POINT_OF_SALE_LISTS);
  // The company of an existing point of sale does not change (the form does not offer it).
  if (record) values.empresa = record.empresa.cnpj;
  const shown = { ...props, values };
  const parsed = z.safeParse(pointOfSaleSchema, values);
  if (!parsed.success) return { kind: 'page', status: 400, props: { ...shown, errors: formErrors(parsed.error.issues) } };
  try {
    const saved = await savePointOfSale(db, actor, parsed.data, record?.id, ip);
    return { kind: 'redirect', to: successPath(saved.id, record ? 'alterado' : 'criado') };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...shown, errors: failed.errors } };
  }
}

// ─── After a save ────────────────────────────────────────────────────────────────────────────────

export interface PointOfSaleSuccessProps {
  record: PointOfSaleRecord;
  sellers: SellerOption[];
  notice: string;
  /** The metrics filtered by this point of sale, when the viewer may open them. */
  metricsHref?: string;
}

const METRICS_PAGE = '/v2/metricas/evolucao-vendas';

/** /v2/ponto-venda/sucesso?pontoVenda={id}&aviso=criado|alterado: what was saved, and where to go next. */
export async function pointOfSaleSuccessPage(session: PortalSession, url: URL): Promise<PointOfSaleSuccessProps | undefined> {
  const { db, actor } = await actorOf(session);
  const id = url.searchParams.get('pontoVenda') ?? '';
  const record = isId(id) ? await pointOfSaleOf(db, actor, Number(id)) : undefined;
  if (!record) return undefined;
  const notice = url.searchParams.get('aviso');
  const sellers = (await sellerOptions(db, actor, [], record.id)).filter((s) => s.pointOfSaleId === record.id);
  // The menu's own guard, asked for the viewer as the rules know them (profile and operations).
  const viewer = { generation: 'v2' as const, user: { profile: actor.profile, cdOperacoes: actor.operations } };
  const metrics = pageAccess(METRICS_PAGE, viewer, config().PORTAL_ENV) === 'allowed';
  const query = new URLSearchParams({ empresa: record.empresa.cnpj, pontoVenda: record.codigo });
  return {
    record,
    sellers,
    notice: notice && notice in SAVED_NOTICES ? SAVED_NOTICES[notice as SavedNotice] : 'Ponto de venda salvo.',
    metricsHref: metrics ? `${METRICS_PAGE}?${query}` : undefined,
  };
}
