import * as z from 'zod/mini';
import { database } from '../../server/boot/database';
import type { DB } from '../../server/db';
import { companyActorOf, openRegistration, type CompanyRecord, type Registration } from '../../server/services/network/partners-company';
import {
  channelOptions,
  partnerOffersInForce,
  partnerOptions,
  productOptions,
  saveStep,
  type PartnerOfferOption,
  type PartnerOption,
  type ProductOption,
} from '../../server/services/network/partners-steps';
import { confirmRegistration } from '../../server/services/network/partners-confirm';
import { setCompanyStatus } from '../../server/services/network/partners-status';
import { listCompanies, type CompanyListRow } from '../../server/services/network/partners-lists';
import {
  COMPANY_STEPS,
  companyListHref,
  isListNotice,
  LIST_NOTICES,
  mayManageCompany,
  mayOnboard,
  nextStep,
  parseStepAddress,
  pendingStep,
  stepPath,
  stepReachable,
  type CompanyAction,
  type CompanyActor,
  type CompanyKind,
  type CompanyStep,
  type DraftAction,
  type FieldErrors,
  type ListNotice,
  type SectionKey,
  type StepKey,
} from '../../lib/partners';
import {
  companyListQuery,
  offersFromForm,
  sectionFormValues,
  suspensionSchema,
  type CompanyDraft,
  type FormValues,
} from '../../lib/partner-forms';
import { formErrors, formValues } from '../../lib/user-admin';
import type { PortalSession } from '../../lib/session';
import { pageWithin, withReadablePage } from '../../lib/list-query';
import { asFieldErrors, readForm, type Routed } from '../controller.server';

/*
 * The pages of partners and substabelecidos (issue 17, decision 052): the list and the onboarding
 * steps, plain GET and POST forms without script. A step that saves redirects (303) to the next;
 * one refused renders the same form with its values and pt-BR messages (400, 409 for a duplicate)
 * — never a 500 for bad input. An address typed ahead of its draft goes back to the first step it
 * lacks; a company or draft the viewer may not manage is the 404 page.
 */

async function context(session: PortalSession) {
  const db = await database();
  const actor = await companyActorOf(db, { id: session.v2!.idUsuario, profile: session.v2!.cdPerfilUsuario });
  return { db, actor };
}

// ─── The list ────────────────────────────────────────────────────────────────────────────────────

export interface CompanyListProps {
  kind: CompanyKind;
  values: Record<string, string>;
  errors?: FieldErrors;
  rows: CompanyListRow[];
  page: number;
  totalPages: number;
  totalElements: number;
  notice?: string;
  canOnboard: boolean;
}

/**
 * /v2/parceiros/consulta (?aviso=…) and /v2/substabelecido/consulta[/{action}]: the {action} of
 * SPEC's address is what was just done (cadastrado, alterado, suspenso, reativado); any other is
 * the 404 page.
 */
export async function companyListPage(
  kind: CompanyKind,
  session: PortalSession,
  url: URL,
  action?: string,
): Promise<Routed<CompanyListProps>> {
  if (action !== undefined && !isListNotice(action)) return { kind: 'not-found' };
  const { db, actor } = await context(session);
  // A page that is no number shows the first, one past the last the last (lib/list-query.ts).
  const params = withReadablePage(url.searchParams, 'pagina');
  const raw = Object.fromEntries(['cnpj', 'nome', 'status', 'pagina'].map((k) => [k, params.get(k) ?? '']));
  const values = { cnpj: raw.cnpj!, nome: raw.nome!, status: raw.status!.toLowerCase() };
  const notice = action ?? url.searchParams.get('aviso');
  const base = {
    kind,
    values,
    canOnboard: mayOnboard(actor, kind),
    notice: isListNotice(notice) ? LIST_NOTICES[notice](noun(kind)) : undefined,
  };
  const parsed = z.safeParse(companyListQuery, raw);
  if (!parsed.success)
    return {
      kind: 'page',
      status: 400,
      props: { ...base, errors: formErrors(parsed.error.issues), rows: [], page: 1, totalPages: 0, totalElements: 0 },
    };
  const result = await pageWithin(parsed.data.pagina, (pagina) => listCompanies(db, actor, kind, { ...parsed.data, pagina }));
  return {
    kind: 'page',
    status: 200,
    props: { ...base, rows: result.content, page: result.page, totalPages: result.totalPages, totalElements: result.totalElements },
  };
}

const noun = (kind: CompanyKind) => (kind === 'PARCEIRO' ? 'parceiro' : 'substabelecido');

// ─── The steps ───────────────────────────────────────────────────────────────────────────────────

export interface ReviewFacts {
  /** The substabelecido's partner, by name. */
  parceiro?: string;
  /** A partner's sales channel, by name. */
  canal?: string;
  /** Each offer chosen in words: product, remuneration, start. */
  ofertas: { nome: string; comissao: number; inicio: string }[];
}

export interface CompanyStepProps {
  kind: CompanyKind;
  step: CompanyStep;
  action: CompanyAction;
  cnpj?: string;
  formAction: string;
  values: FormValues;
  errors?: FieldErrors;
  draft: CompanyDraft;
  company?: CompanyRecord;
  steps: { id: string; label: string; href?: string }[];
  partners: PartnerOption[];
  /** A partner's company step: the active sales channels. */
  channels: { codigo: string; nome: string }[];
  products: ProductOption[];
  partnerOffers: PartnerOfferOption[];
  review: ReviewFacts;
  /** visualizar: may the viewer edit and suspend it. */
  canManage: boolean;
  /** visualizar: the suspension or reactivation form asked for (?operacao=). */
  operation?: 'suspender' | 'reativar';
}

const STEP_LABELS = COMPANY_STEPS.map((s) => ({ id: s.key, label: s.label }));

function stepLinks(kind: CompanyKind, registration: Registration) {
  const action = registration.action === 'visualizar' ? 'editar' : registration.action;
  return STEP_LABELS.map(({ id, label }) => ({
    id,
    label,
    href:
      registration.cnpj && registration.action !== 'visualizar' && stepReachable(id as StepKey, registration.draft, action)
        ? stepPath(kind, id as StepKey, registration.cnpj, action)
        : undefined,
  }));
}

/** What the step's form shows: the draft's answer, or sensible defaults for a new one. */
function initialValues(kind: CompanyKind, key: StepKey, draft: CompanyDraft, partners: PartnerOption[]): FormValues {
  if (key === 'revisao') return {};
  const saved = draft[key];
  if (saved !== undefined) return sectionFormValues(kind, key, saved);
  if (key === 'empresa') return kind === 'SUBSTABELECIDO' && partners.length === 1 ? { parceiro: partners[0]!.cnpj } : {};
  if (key === 'conta') return { tipo: 'CONTA', titular: draft.empresa?.cnpj ?? '' };
  return {};
}

/** The step's address without a draft of its own yet: where a new one starts. */
const startOf = (kind: CompanyKind) => stepPath(kind, 'empresa');

/**
 * /v2/{parceiros|substabelecido}/etapas/{screen}[/{cnpj}/{subetapa}/{action}]: the step itself, a
 * redirect to the first step its draft lacks, or the 404 page.
 */
export async function companyStepPage(
  kind: CompanyKind,
  session: PortalSession,
  passo: string | undefined,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<CompanyStepProps>> {
  const address = parseStepAddress(passo);
  if (!address) return { kind: 'not-found' };
  const { db, actor } = await context(session);
  if (!address.cnpj && address.step.key !== 'empresa') {
    const opened = await openRegistration(db, actor, kind, {});
    return opened.kind === 'ok' ? { kind: 'redirect', to: startOf(kind) } : { kind: 'not-found' };
  }
  const opened = await openRegistration(db, actor, kind, { cnpj: address.cnpj, action: address.action });
  if (opened.kind === 'not-found') return { kind: 'not-found' };
  if (opened.kind === 'no-draft') return { kind: 'redirect', to: startOf(kind) };
  const registration = opened.registration;
  const key = address.step.key;
  const { action } = registration;
  if (action === 'visualizar' && key !== 'revisao')
    return { kind: 'redirect', to: stepPath(kind, 'revisao', registration.cnpj, 'visualizar') };
  if (action !== 'visualizar' && !stepReachable(key, registration.draft, action))
    return { kind: 'redirect', to: stepPath(kind, pendingStep(registration.draft, action), registration.cnpj, action) };

  const partners = kind === 'SUBSTABELECIDO' && key === 'empresa' ? await partnerOptions(db, actor) : [];
  const props: CompanyStepProps = {
    kind,
    step: address.step,
    action,
    cnpj: registration.cnpj,
    formAction: registration.cnpj ? stepPath(kind, key, registration.cnpj, action) : startOf(kind),
    values: initialValues(kind, key, registration.draft, partners),
    draft: registration.draft,
    company: registration.company,
    steps: stepLinks(kind, registration),
    partners,
    channels: kind === 'PARCEIRO' && key === 'empresa' ? await channelOptions(db) : [],
    products: kind === 'PARCEIRO' && (key === 'ofertas' || key === 'revisao') ? await productOptions(db) : [],
    partnerOffers: kind === 'SUBSTABELECIDO' && (key === 'ofertas' || key === 'revisao') ? await offersOfPartner(db, registration) : [],
    review: { ofertas: [] },
    canManage: Boolean(registration.company && mayManageCompany(actor, registration.company)),
    operation: action === 'visualizar' ? operationOf(url.searchParams.get('operacao'), registration.company) : undefined,
  };
  if (key === 'revisao') props.review = await reviewFacts(db, registration, props);
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };

  const form = await readForm(request);
  if (key === 'revisao')
    return action === 'visualizar' ? statusPost(db, actor, props, form, ip) : confirmPost(db, actor, props, action, ip);
  // An active company's administrators change in Acesso › Usuários: the step only shows them.
  if (key === 'administrador' && action === 'editar') return { kind: 'redirect', to: stepPath(kind, 'revisao', registration.cnpj, action) };
  return stepPost(db, actor, props, key, action as DraftAction, form);
}

const operationOf = (value: string | null, company: CompanyRecord | undefined) =>
  value === 'suspender' && company?.status === 'ATIVO'
    ? 'suspender'
    : value === 'reativar' && company?.status === 'SUSPENSO'
      ? 'reativar'
      : undefined;

async function offersOfPartner(db: DB, registration: Registration): Promise<PartnerOfferOption[]> {
  const partnerId = registration.company?.parentId ?? registration.stored?.parentId;
  return partnerId ? partnerOffersInForce(db, partnerId) : [];
}

async function reviewFacts(db: DB, registration: Registration, props: CompanyStepProps): Promise<ReviewFacts> {
  const { draft } = registration;
  const parceiro =
    registration.company?.parent?.nomeFantasia ??
    (draft.empresa?.parceiro
      ? (await db.selectFrom('companies').select('nome_fantasia').where('cnpj', '=', draft.empresa.parceiro).executeTakeFirst())
          ?.nome_fantasia
      : undefined);
  const ofertas = (draft.ofertas ?? []).map((choice) => {
    const nome =
      'simulador' in choice
        ? (props.products.find((p) => p.code === choice.simulador)?.name ?? choice.simulador)
        : (props.partnerOffers.find((o) => o.nrOferta === choice.oferta)?.nome ?? `Oferta ${choice.oferta} (fora de vigência no parceiro)`);
    return { nome, comissao: choice.comissao, inicio: choice.inicio };
  });
  const canal = draft.empresa?.canal
    ? (await db.selectFrom('channels').select('nome').where('codigo', '=', draft.empresa.canal).executeTakeFirst())?.nome
    : undefined;
  return { parceiro, canal, ofertas };
}

async function stepPost(
  db: DB,
  actor: CompanyActor,
  props: CompanyStepProps,
  key: SectionKey,
  action: DraftAction,
  form: FormData,
): Promise<Routed<CompanyStepProps>> {
  const values = formValues(form, key === 'ofertas' ? ['produto', 'oferta'] : []);
  const input = key === 'ofertas' ? offersFromForm(props.kind, values) : values;
  try {
    const saved = await saveStep(db, actor, props.kind, { cnpj: props.cnpj, action }, key, input);
    return { kind: 'redirect', to: stepPath(props.kind, nextStep(key), saved.cnpj, action) };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, values, errors: failed.errors } };
  }
}

async function confirmPost(
  db: DB,
  actor: CompanyActor,
  props: CompanyStepProps,
  action: DraftAction,
  ip: string,
): Promise<Routed<CompanyStepProps>> {
  try {
    const done = await confirmRegistration(db, actor, props.kind, props.cnpj!, action, ip);
    return { kind: 'redirect', to: companyListHref(props.kind, {}, 1, done.notice) };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, errors: failed.errors } };
  }
}

const operationForm = z.object({ operacao: z.enum(['suspender', 'reativar']) });

async function statusPost(
  db: DB,
  actor: CompanyActor,
  props: CompanyStepProps,
  form: FormData,
  ip: string,
): Promise<Routed<CompanyStepProps>> {
  const values = formValues(form);
  const fail = (status: number, errors: FieldErrors): Routed<CompanyStepProps> => ({
    kind: 'page',
    status,
    props: { ...props, values, errors },
  });
  const chosen = z.safeParse(operationForm, values);
  if (!chosen.success) return fail(400, { form: ['Ação inválida: escolha suspender ou reativar.'] });
  const operation = chosen.data.operacao;
  props.operation = operation;
  let motivo: string | null = null;
  if (operation === 'suspender') {
    const parsed = z.safeParse(suspensionSchema, values);
    if (!parsed.success) return fail(400, formErrors(parsed.error.issues));
    motivo = parsed.data.motivo;
  }
  try {
    const done = await setCompanyStatus(db, actor, props.kind, props.cnpj!, operation, motivo, ip);
    return { kind: 'redirect', to: companyListHref(props.kind, {}, 1, done.notice as ListNotice) };
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return fail(failed.status, failed.errors);
  }
}
