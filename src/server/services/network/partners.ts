import { sql, type Selectable } from 'kysely';
import { appendAccessEvent } from '../identity/access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import { PORTAL_CHANNEL } from '../../../lib/hierarchy';
import type { DB } from '../../db';
import type { CompaniesTable } from '../../db/schema';
import { notFound, conflict } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { principalFacts, profileOf } from '../identity/principals';
import { refuse } from './user-admin-writing';
import { insertV2User } from './user-admin-v2';
import { usersLeftOut } from '../identity/company-status';
import { OFFERS_CHANGED } from './offers';
import { brasiliaDay } from '../../../lib/format';
import { maskedDestination } from '../../../lib/cancellation';
import { isInForce } from '../../../lib/offer-validity';
import { findSimulatorCode } from '../../../lib/simulators';
import type { Address } from '../../../lib/products/insured';
import type { PayeeAccount } from '../../../lib/refund-account';
import { formatCnpj } from '../../../lib/validators';
import type { V2Actor } from '../../../lib/user-admin';
import {
  COMPANY_FORM_MESSAGES,
  readDraft,
  readSection,
  sectionSchema,
  stepErrors,
  type Administrator,
  type Commercial,
  type CompanyData,
  type CompanyDraft,
  type CompanyListQuery,
  type Responsible,
} from '../../../lib/partner-forms';
import * as z from 'zod/mini';
import {
  ADMINISTRATOR_PROFILE,
  administratorOperations,
  COMPANY_PAGE_SIZE,
  managedPartners,
  mayManageCompany,
  mayManagePartners,
  mayOnboard,
  mayOpenSubs,
  maySeeCompany,
  onboardingProducts,
  partnerOfferProblems,
  remunerationLimit,
  SECTION_KEYS,
  stepByKey,
  stepReachable,
  OFFER_MESSAGES,
  subOfferProblems,
  type CompanyAction,
  type CompanyActor,
  type CompanyKind,
  type CompanyStatus,
  type DraftAction,
  type FieldErrors,
  type ParentOffer,
  type PartnerOfferChoice,
  type SectionKey,
  type SubOfferChoice,
} from '../../../lib/partners';

/*
 * Partners and substabelecidos (issue 17, decision 052): the onboarding steps kept as drafts, the
 * activation and the edit in one transaction each, the suspension, and the lists. The rules are
 * lib/partners.ts and lib/partner-forms.ts; this reads what they need, writes, and logs who did what
 * in access_events (never a whole bank account).
 */

type Db = DB;

export const NOT_FOUND_MESSAGE = 'Empresa não encontrada entre as que você administra.';

// ─── Who asks ────────────────────────────────────────────────────────────────────────────────────

export async function companyActorOf(db: Db, user: { id: number; profile: string | null }): Promise<CompanyActor> {
  // The principal's facts are cached per user (decision 031); the kinds of their companies are one short read.
  const facts = await principalFacts(db, user.id);
  const ids = facts.companies.map((c) => c.id);
  const kinds = ids.length ? await db.selectFrom('companies').select(['id', 'tipo', 'parent_id']).where('id', 'in', ids).execute() : [];
  return {
    userId: user.id,
    profile: profileOf(user.profile),
    operations: facts.operations,
    companies: kinds.map((c) => ({ id: c.id, tipo: c.tipo, parentId: c.parent_id })),
  };
}

// ─── A company as the steps and the review read it ───────────────────────────────────────────────

export interface CompanyRecord {
  id: number;
  cnpj: string;
  tipo: CompanyKind;
  parentId: number | null;
  parent: { id: number; cnpj: string; razaoSocial: string; nomeFantasia: string; status: CompanyStatus } | null;
  status: CompanyStatus;
  razaoSocial: string;
  nomeFantasia: string;
  corretora: boolean;
  susep: string | null;
  /** The sales channel it sells through (decision 050): a substabelecido's is its partner's. */
  canal: { codigo: string; nome: string };
  endereco?: Address;
  responsavel?: Responsible;
  comercial?: Commercial;
  conta?: PayeeAccount;
  activatedAt: Date | null;
  suspendedAt: Date | null;
  motivoSuspensao: string | null;
  /** Any offer row of its own, in any state: a substabelecido without one sells its partner's (decision 016). */
  hasOwnOffers: boolean;
  /** The offers the step manages: a partner's per product, a substabelecido's derived ones (active). */
  ofertas: PartnerOfferChoice[] | SubOfferChoice[];
  /** Who administers it: linked PARCEIRO_ADMINs and users holding GERENCIAR_USUARIOS. */
  administradores: { nome: string; email: string; status: string }[];
  usuarios: number;
}

type CompanyRow = Selectable<CompaniesTable>;

/** Contacts as the column keeps them. */
interface StoredContacts {
  responsavel?: unknown;
  comercial?: unknown;
}

async function readCompany(db: Db, where: { cnpj: string } | { id: number }): Promise<CompanyRecord | undefined> {
  let query = db.selectFrom('companies').selectAll();
  query = 'cnpj' in where ? query.where('cnpj', '=', where.cnpj) : query.where('id', '=', where.id);
  const row = await query.executeTakeFirst();
  return row && (await recordOf(db, row));
}

async function recordOf(db: Db, row: CompanyRow): Promise<CompanyRecord> {
  const kind = row.tipo;
  const [channel, parent, offers, admins, users] = await Promise.all([
    db.selectFrom('channels').select(['codigo', 'nome']).where('id', '=', row.channel_id).executeTakeFirstOrThrow(),
    row.parent_id === null
      ? undefined
      : db
          .selectFrom('companies')
          .select(['id', 'cnpj', 'razao_social', 'nome_fantasia', 'status'])
          .where('id', '=', row.parent_id)
          .executeTakeFirst(),
    db
      .selectFrom('offers as o')
      .innerJoin('simulators as s', 's.id', 'o.simulator_id')
      .select(['o.id', 's.code', 's.ativo as simuladorAtivo', 'o.ativo', 'o.comissao_centesimos', 'o.vigencia_inicio', 'o.parent_offer_id'])
      .where('o.company_id', '=', row.id)
      .orderBy('o.id')
      .execute(),
    db
      .selectFrom('users as u')
      .select(['u.nome', 'u.email', 'u.status'])
      .where('u.id', 'in', (eb) => eb.selectFrom('user_companies').select('user_id').where('company_id', '=', row.id))
      .where('u.status', 'in', ['ATIVO', 'PENDENTE'])
      .where((eb) =>
        eb.or([
          eb('u.profile', '=', 'parceiro_admin'),
          eb.exists(
            eb
              .selectFrom('user_operations as o')
              .select('o.user_id')
              .whereRef('o.user_id', '=', 'u.id')
              .where('o.operation', '=', 'GERENCIAR_USUARIOS'),
          ),
          eb.exists(
            eb
              .selectFrom('v2_permission_group_operations as g')
              .select('g.group_id')
              .whereRef('g.group_id', '=', 'u.permission_group_id')
              .where('g.operation', '=', 'GERENCIAR_USUARIOS'),
          ),
        ]),
      )
      .orderBy('u.nome')
      .execute(),
    db.selectFrom('user_companies').select(sql<number>`count(*)::int`.as('n')).where('company_id', '=', row.id).executeTakeFirstOrThrow(),
  ]);
  const contacts = (row.contatos ?? {}) as StoredContacts;
  const v2Codes = new Set(onboardingProducts(offers.filter((o) => o.simuladorAtivo).map((o) => o.code)).map((p) => p.code));
  const ofertas =
    kind === 'PARCEIRO'
      ? [...v2Codes].flatMap((code): PartnerOfferChoice[] => {
          const first = offers.find((o) => o.code === code && o.ativo && o.parent_offer_id === null);
          return first ? [{ simulador: code, comissao: first.comissao_centesimos, inicio: first.vigencia_inicio }] : [];
        })
      : offers
          .filter((o) => o.ativo && o.parent_offer_id !== null)
          .map((o): SubOfferChoice => ({ oferta: o.parent_offer_id!, comissao: o.comissao_centesimos, inicio: o.vigencia_inicio }));
  return {
    id: row.id,
    cnpj: row.cnpj,
    tipo: kind,
    parentId: row.parent_id,
    parent: parent
      ? { id: parent.id, cnpj: parent.cnpj, razaoSocial: parent.razao_social, nomeFantasia: parent.nome_fantasia, status: parent.status }
      : null,
    status: row.status,
    razaoSocial: row.razao_social,
    nomeFantasia: row.nome_fantasia,
    corretora: row.corretora,
    susep: row.susep,
    canal: channel,
    // The columns are checked by the steps' schemas on the way out too: one that no longer passes is missing.
    endereco: readSection<Address>(kind, 'endereco', row.endereco, row.cnpj),
    responsavel: readSection<Responsible>(kind, 'responsavel', contacts.responsavel, row.cnpj),
    comercial: readSection<Commercial>(kind, 'comercial', contacts.comercial, row.cnpj),
    conta: readSection<PayeeAccount>(kind, 'conta', row.conta_comissao, row.cnpj),
    activatedAt: row.activated_at,
    suspendedAt: row.suspended_at,
    motivoSuspensao: row.motivo_suspensao,
    hasOwnOffers: offers.length > 0,
    ofertas,
    administradores: admins,
    usuarios: users.n,
  };
}

/** A company's data as the steps' answers: where an edit starts. */
function sectionsOf(company: CompanyRecord): CompanyDraft {
  const draft: CompanyDraft = {
    empresa: {
      cnpj: company.cnpj,
      razaoSocial: company.razaoSocial,
      nomeFantasia: company.nomeFantasia,
      corretora: company.corretora,
      susep: company.susep ?? '',
      ...(company.parent ? { parceiro: company.parent.cnpj } : { canal: company.canal.codigo }),
    },
    ofertas: company.ofertas,
  };
  if (company.endereco) draft.endereco = company.endereco;
  if (company.responsavel) draft.responsavel = company.responsavel;
  if (company.comercial) draft.comercial = company.comercial;
  if (company.conta) draft.conta = company.conta;
  return draft;
}

// ─── Opening a registration ──────────────────────────────────────────────────────────────────────

export interface Registration {
  kind: CompanyKind;
  action: CompanyAction;
  /** The CNPJ the addresses carry; absent on the first step of a new one. */
  cnpj?: string;
  company?: CompanyRecord;
  /** The stored draft's partner (a substabelecido's), and whether a draft is stored at all. */
  stored?: { parentId: number | null; updatedAt: Date };
  draft: CompanyDraft;
}

export type Opened = { kind: 'ok'; registration: Registration } | { kind: 'not-found' } | { kind: 'no-draft' };

const draftRow = (db: Db, cnpj: string, acao: DraftAction) =>
  db
    .selectFrom('company_drafts')
    .select(['tipo', 'parent_id', 'dados', 'updated_at'])
    .where('cnpj', '=', cnpj)
    .where('acao', '=', acao)
    .executeTakeFirst();

const managesPartner = (actor: CompanyActor, partnerId: number | null) => {
  const partners = managedPartners(actor);
  return partnerId !== null && (partners === 'all' || partners.includes(partnerId));
};

/**
 * What a step's address opens: a new registration (no CNPJ), a new one's draft, or an active
 * company to edit or view. Anything the actor may not manage — another partner's draft, a company
 * not under their partners, one of the other kind — is not found, told apart from nothing.
 */
export async function openRegistration(
  db: Db,
  actor: CompanyActor,
  kind: CompanyKind,
  address: { cnpj?: string; action?: CompanyAction },
): Promise<Opened> {
  if (kind === 'PARCEIRO' ? !mayManagePartners(actor) : !mayOpenSubs(actor)) return { kind: 'not-found' };
  const { cnpj, action = 'novo' } = address;
  if (!cnpj) return mayOnboard(actor, kind) ? { kind: 'ok', registration: { kind, action: 'novo', draft: {} } } : { kind: 'not-found' };
  if (action === 'novo') {
    if (!mayOnboard(actor, kind)) return { kind: 'not-found' };
    const row = await draftRow(db, cnpj, 'novo');
    if (!row) return { kind: 'no-draft' };
    if (row.tipo !== kind || (kind === 'SUBSTABELECIDO' && !managesPartner(actor, row.parent_id))) return { kind: 'not-found' };
    return {
      kind: 'ok',
      registration: {
        kind,
        action,
        cnpj,
        stored: { parentId: row.parent_id, updatedAt: row.updated_at },
        draft: readDraft(kind, row.dados, cnpj),
      },
    };
  }
  const company = await readCompany(db, { cnpj });
  if (!company || company.tipo !== kind) return { kind: 'not-found' };
  const facts = { id: company.id, tipo: company.tipo, parentId: company.parentId };
  if (action === 'visualizar')
    return maySeeCompany(actor, facts)
      ? { kind: 'ok', registration: { kind, action, cnpj, company, draft: sectionsOf(company) } }
      : { kind: 'not-found' };
  if (!mayManageCompany(actor, facts)) return { kind: 'not-found' };
  const row = await draftRow(db, cnpj, 'editar');
  return {
    kind: 'ok',
    registration: {
      kind,
      action,
      cnpj,
      company,
      stored: row ? { parentId: row.parent_id, updatedAt: row.updated_at } : undefined,
      draft: { ...sectionsOf(company), ...(row ? readDraft(kind, row.dados, cnpj) : {}) },
    },
  };
}

// ─── What each step may choose among ─────────────────────────────────────────────────────────────

export interface PartnerOption {
  id: number;
  cnpj: string;
  nome: string;
}

/** The partners a new substabelecido may be put under: the active ones the actor manages. */
export async function partnerOptions(db: Db, actor: CompanyActor): Promise<PartnerOption[]> {
  const partners = managedPartners(actor);
  if (partners !== 'all' && partners.length === 0) return [];
  let query = db
    .selectFrom('companies')
    .select(['id', 'cnpj', 'nome_fantasia'])
    .where('tipo', '=', 'PARCEIRO')
    .where('status', '=', 'ATIVO')
    .orderBy('nome_fantasia');
  if (partners !== 'all') query = query.where('id', 'in', partners);
  return (await query.execute()).map((r) => ({ id: r.id, cnpj: r.cnpj, nome: r.nome_fantasia }));
}

export interface ProductOption {
  code: string;
  name: string;
  /** Hundredths of a percent. */
  limit: number;
}

/** The products a partner may be given: the active v2 simulators, each with its remuneration limit. */
export async function productOptions(db: Db): Promise<ProductOption[]> {
  const active = await db.selectFrom('simulators').select('code').where('ativo', '=', true).execute();
  return onboardingProducts(active.map((s) => s.code)).map((p) => ({ code: p.code, name: p.name, limit: remunerationLimit(p.code)! }));
}

export interface PartnerOfferOption extends ParentOffer {
  code: string;
  nome: string;
  vigenciaFim: string | null;
}

/** A partner's offers in force today (its own, of active v2 simulators): what a substabelecido may derive from. */
export async function partnerOffersInForce(db: Db, partnerId: number, today = now()): Promise<PartnerOfferOption[]> {
  const day = brasiliaDay(today);
  const rows = await db
    .selectFrom('offers as o')
    .innerJoin('simulators as s', 's.id', 'o.simulator_id')
    .innerJoin('companies as c', 'c.id', 'o.company_id')
    .select(['o.id', 's.code', 'o.nome', 'o.comissao_centesimos', 'o.vigencia_inicio', 'o.vigencia_fim'])
    .where('o.company_id', '=', partnerId)
    .where('o.parent_offer_id', 'is', null)
    .where('o.ativo', '=', true)
    .where('s.ativo', '=', true)
    .where('c.status', '=', 'ATIVO')
    .orderBy('s.nome')
    .orderBy('o.id')
    .execute();
  return rows
    .filter((r) => findSimulatorCode(r.code)?.v2 && isInForce({ vigenciaInicio: r.vigencia_inicio, vigenciaFim: r.vigencia_fim }, day))
    .map((r) => ({ nrOferta: r.id, code: r.code, nome: r.nome, comissao: r.comissao_centesimos, vigenciaFim: r.vigencia_fim }));
}

const partnerByCnpj = (db: Db, cnpj: string) =>
  db
    .selectFrom('companies')
    .select(['id', 'status', 'tipo', 'channel_id'])
    .where('cnpj', '=', cnpj)
    .where('tipo', '=', 'PARCEIRO')
    .executeTakeFirst();

const activeChannel = (db: Db, codigo: string) =>
  db.selectFrom('channels').select('id').where('codigo', '=', codigo).where('status', '=', 'ATIVO').executeTakeFirst();

/** The active sales channels a partner may be given (the company step's choice). */
export async function channelOptions(db: Db): Promise<{ codigo: string; nome: string }[]> {
  return db.selectFrom('channels').select(['codigo', 'nome']).where('status', '=', 'ATIVO').orderBy('nome').execute();
}

/** The channel a company sells through: a partner's of its step, a substabelecido's its partner's. */
async function channelIdOf(trx: Db, empresa: CompanyData, partner: { channel_id: number } | undefined): Promise<number> {
  if (partner) return partner.channel_id;
  const row = await trx
    .selectFrom('channels')
    .select('id')
    .where('codigo', '=', empresa.canal ?? PORTAL_CHANNEL)
    .executeTakeFirst();
  return row?.id ?? refused({ canal: [M.canal] });
}

/** The partner a draft's company data names (a substabelecido's), when the actor manages it. */
async function draftPartner(db: Db, actor: CompanyActor, empresa: CompanyData | undefined) {
  if (!empresa?.parceiro) return undefined;
  const partner = await partnerByCnpj(db, empresa.parceiro);
  return partner && managesPartner(actor, partner.id) ? partner : undefined;
}

/** The partner's offers in force a substabelecido's offers step may derive from. */
async function offersToDeriveFrom(db: Db, actor: CompanyActor, registration: Registration) {
  const partner = registration.company?.parentId ?? (await draftPartner(db, actor, registration.draft.empresa))?.id;
  return partner === undefined || partner === null ? [] : partnerOffersInForce(db, partner);
}

/**
 * A substabelecido's offers step naming an offer that is not one of its partner's in force — typed by
 * hand, or a checkbox added or changed in the browser, usually without the fields of its row. That is
 * what is wrong, whatever else is (issue 27: the row's fields' messages named fields the page does not
 * show).
 */
async function offersOutsidePartner(db: Db, actor: CompanyActor, registration: Registration, input: unknown): Promise<boolean> {
  if (!Array.isArray(input) || input.length === 0) return false;
  const ids = new Set((await offersToDeriveFrom(db, actor, registration)).map((o) => String(o.nrOferta)));
  return input.some((row: { oferta?: unknown } | null) => !ids.has(String(row?.oferta ?? '').trim()));
}

// ─── Each step's rules beyond its schema ─────────────────────────────────────────────────────────

const M = COMPANY_FORM_MESSAGES;

/** Which status a field's problem answers: a duplicate is a conflict (409), anything else bad input (400). */
const CONFLICTS = new Set<string>([
  M.duplicateCnpj,
  M.draftElsewhere,
  M.duplicateSusep,
  'E-mail já cadastrado para outro usuário.',
  'CPF já cadastrado para outro usuário.',
]);
const statusOf = (errors: FieldErrors) =>
  Object.values(errors)
    .flat()
    .every((m) => CONFLICTS.has(m))
    ? 'conflict'
    : 'invalid';

/**
 * A step's answer against the database: duplicates, the partner chosen, the offers' rules, the
 * administrator's e-mail and CPF. Field errors by the form's field names (empty: none).
 */
async function sectionProblems(
  db: Db,
  actor: CompanyActor,
  registration: Registration,
  key: SectionKey,
  value: unknown,
): Promise<FieldErrors> {
  const { kind, company } = registration;
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
  if (key === 'empresa') {
    const data = value as CompanyData;
    const existing = await db.selectFrom('companies').select('id').where('cnpj', '=', data.cnpj).executeTakeFirst();
    if (existing && existing.id !== company?.id) add('cnpj', M.duplicateCnpj);
    if (!company && data.cnpj !== registration.cnpj && (await draftRow(db, data.cnpj, 'novo'))) add('cnpj', M.draftElsewhere);
    if (data.susep) {
      const susep = await db.selectFrom('companies').select('id').where('susep', '=', data.susep).executeTakeFirst();
      if (susep && susep.id !== company?.id) add('susep', M.duplicateSusep);
    }
    // A partner sells through an active channel (its current one may have been closed since: it stays).
    if (kind === 'PARCEIRO' && data.canal !== company?.canal.codigo && !(await activeChannel(db, data.canal ?? ''))) add('canal', M.canal);
    if (kind === 'SUBSTABELECIDO' && !company) {
      const partner = data.parceiro ? await partnerByCnpj(db, data.parceiro) : undefined;
      if (!partner || !managesPartner(actor, partner.id)) add('parceiro', M.partnerUnknown);
      else if (partner.status !== 'ATIVO') add('parceiro', M.partnerSuspended);
    }
  }
  if (key === 'ofertas') {
    if (kind === 'PARCEIRO') {
      const products = await productOptions(db);
      Object.assign(
        errors,
        partnerOfferProblems(
          value as PartnerOfferChoice[],
          products.map((p) => p.code),
          { subsAbove: company ? await derivedAbove(db, company.id) : undefined },
        ),
      );
    } else {
      const offers = await offersToDeriveFrom(db, actor, registration);
      // A substabelecido registered before it could have offers of its own keeps selling its partner's until some are chosen.
      Object.assign(errors, subOfferProblems(value as SubOfferChoice[], offers, { allowNone: Boolean(company && !company.hasOwnOffers) }));
    }
  }
  if (key === 'administrador') {
    const admin = value as Administrator;
    const taken = await db
      .selectFrom('users')
      .select(['email', 'cpf'])
      .where((eb) => eb.or([eb('email', '=', admin.email), eb('cpf', '=', admin.cpf)]))
      .execute();
    if (taken.some((u) => u.email === admin.email)) add('email', 'E-mail já cadastrado para outro usuário.');
    if (taken.some((u) => u.cpf === admin.cpf)) add('cpf', 'CPF já cadastrado para outro usuário.');
  }
  return errors;
}

/** The substabelecidos' active derived offers per product of a partner: a lowered remuneration may not pass under them. */
async function derivedAbove(db: Db, partnerId: number): Promise<Map<string, { nome: string; comissao: number }[]>> {
  const rows = await db
    .selectFrom('offers as d')
    .innerJoin('offers as p', 'p.id', 'd.parent_offer_id')
    .innerJoin('simulators as s', 's.id', 'p.simulator_id')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select(['s.code', 'c.nome_fantasia', 'd.comissao_centesimos'])
    .where('p.company_id', '=', partnerId)
    .where('d.ativo', '=', true)
    .execute();
  const byCode = new Map<string, { nome: string; comissao: number }[]>();
  for (const r of rows) byCode.set(r.code, [...(byCode.get(r.code) ?? []), { nome: r.nome_fantasia, comissao: r.comissao_centesimos }]);
  return byCode;
}

// ─── Saving a step ───────────────────────────────────────────────────────────────────────────────

const isUniqueViolation = (error: unknown, constraint: string) => {
  const { code, constraint: name } = (error ?? {}) as { code?: string; constraint?: string };
  return code === '23505' && (name === constraint || name === undefined);
};

/**
 * What another activation committed between this one's checks and its writes — the same SUSEP under
 * another CNPJ, the administrator's e-mail or CPF — is stopped by the unique indexes: the loser gets
 * the same 409 as if it had come second.
 */
async function asConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { code, constraint = '' } = (error ?? {}) as { code?: string; constraint?: string };
    if (code !== '23505') throw error;
    const user = constraint.startsWith('users_');
    const message = constraint.includes('susep')
      ? M.duplicateSusep
      : constraint.includes('cpf')
        ? 'CPF já cadastrado para outro usuário.'
        : user
          ? 'E-mail já cadastrado para outro usuário.'
          : M.duplicateCnpj;
    return refused({ [user ? 'administrador' : 'empresa']: [message] });
  }
}

/** A refusal that carries field errors, as a step form shows them. */
const refused = (errors: FieldErrors): never => refuse(errors, statusOf(errors));

export interface StepRequest {
  cnpj?: string;
  action: DraftAction;
}

/**
 * Saves one step's answer in the draft of that CNPJ and action — a new one's first step creates it,
 * keyed by the CNPJ typed (a CNPJ typed again carries the later steps along). Answers the CNPJ the
 * next address carries. The step must be open to the actor and reachable; the answer passes its
 * schema and its rules, or nothing is written.
 */
export async function saveStep(
  db: Db,
  actor: CompanyActor,
  kind: CompanyKind,
  request: StepRequest,
  key: SectionKey,
  input: unknown,
): Promise<{ cnpj: string }> {
  const opened = await openRegistration(db, actor, kind, request);
  // A new registration's first step may be posted again at a draft that is gone (activated, abandoned): it starts anew.
  const registration =
    opened.kind === 'ok'
      ? opened.registration
      : opened.kind === 'no-draft' && key === 'empresa' && mayOnboard(actor, kind)
        ? ({ kind, action: 'novo', draft: {} } as Registration)
        : undefined;
  if (!registration) throw notFound(NOT_FOUND_MESSAGE);
  if (!stepReachable(key, registration.draft, request.action))
    throw conflict(`Conclua antes a etapa "${stepByKey(nextMissing(registration)).label}".`);
  if (key === 'administrador' && request.action === 'editar')
    throw conflict('Os administradores de uma empresa ativa se alteram em Acesso › Usuários.');
  const cnpj = registration.company?.cnpj ?? registration.draft.empresa?.cnpj ?? registration.cnpj ?? '';
  // What an edit may not change: the CNPJ, and the partner a substabelecido is under.
  const fixed =
    key === 'empresa' && registration.company && input && typeof input === 'object'
      ? {
          ...input,
          cnpj: registration.company.cnpj,
          ...(registration.company.parent ? { parceiro: registration.company.parent.cnpj } : {}),
        }
      : input;
  if (key === 'ofertas' && kind === 'SUBSTABELECIDO' && (await offersOutsidePartner(db, actor, registration, fixed)))
    refuse({ ofertas: [OFFER_MESSAGES.outsidePartner] }, 'invalid');
  const parsed = z.safeParse(sectionSchema(kind, key, key === 'empresa' ? '' : cnpj), fixed ?? {});
  if (!parsed.success) refuse(stepErrors(kind, key, parsed.error.issues, fixed), 'invalid');
  const value = parsed.data as unknown;
  const problems = await sectionProblems(db, actor, registration, key, value);
  if (Object.keys(problems).length > 0) refused(problems);
  return writeStep(db, actor, registration, key, value);
}

function nextMissing(registration: Registration) {
  return (
    SECTION_KEYS.find((k) => registration.draft[k] === undefined && !(k === 'administrador' && registration.action === 'editar')) ??
    'revisao'
  );
}

async function writeStep(
  db: Db,
  actor: CompanyActor,
  registration: Registration,
  key: SectionKey,
  value: unknown,
): Promise<{ cnpj: string }> {
  const { kind, action } = registration;
  const at = now();
  const patch = JSON.stringify({ [key]: value });
  try {
    if (action === 'editar') {
      const company = registration.company!;
      await db
        .insertInto('company_drafts')
        .values({
          tipo: kind,
          cnpj: company.cnpj,
          acao: 'editar',
          parent_id: company.parentId,
          dados: patch,
          created_by: actor.userId,
          updated_by: actor.userId,
          updated_at: at,
          created_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(['cnpj', 'acao'])
            .doUpdateSet({ dados: sql`company_drafts.dados || excluded.dados`, updated_by: actor.userId, updated_at: at }),
        )
        .execute();
      return { cnpj: company.cnpj };
    }
    if (key !== 'empresa') {
      await db
        .updateTable('company_drafts')
        .set({ dados: sql`dados || ${patch}::jsonb`, updated_by: actor.userId, updated_at: at })
        .where('cnpj', '=', registration.cnpj!)
        .where('acao', '=', 'novo')
        .execute();
      return { cnpj: registration.cnpj! };
    }
    const data = value as CompanyData;
    const parentId = kind === 'SUBSTABELECIDO' ? ((await partnerByCnpj(db, data.parceiro!))?.id ?? null) : null;
    if (registration.stored && registration.cnpj) {
      // The draft follows the CNPJ typed; the later steps come along (an account's holder is checked again at the review).
      await db
        .updateTable('company_drafts')
        .set({ cnpj: data.cnpj, parent_id: parentId, dados: sql`dados || ${patch}::jsonb`, updated_by: actor.userId, updated_at: at })
        .where('cnpj', '=', registration.cnpj)
        .where('acao', '=', 'novo')
        .execute();
    } else {
      await db
        .insertInto('company_drafts')
        .values({
          tipo: kind,
          cnpj: data.cnpj,
          acao: 'novo',
          parent_id: parentId,
          dados: patch,
          created_by: actor.userId,
          updated_by: actor.userId,
          updated_at: at,
          created_at: at,
        })
        .execute();
    }
    return { cnpj: data.cnpj };
  } catch (error) {
    // Two people typing the same new CNPJ at once: the second is told, and keeps nothing.
    if (isUniqueViolation(error, 'company_drafts_cnpj_acao')) return refused({ cnpj: [M.draftElsewhere] });
    throw error;
  }
}

// ─── Confirming: activation of a new one, the edit of an active one ──────────────────────────────

const lockCompany = (trx: Db, cnpj: string) => sql`select pg_advisory_xact_lock(hashtext(${`company:${cnpj}`}))`.execute(trx);

/** Every section a confirmation needs, each checked again (rules may have changed since its step): problems by section. */
async function confirmationProblems(db: Db, actor: CompanyActor, registration: Registration): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const key of SECTION_KEYS) {
    if (key === 'administrador' && registration.action === 'editar') continue;
    // The draft was read through the schemas, the account against the CNPJ it now has.
    const value = registration.draft[key];
    if (value === undefined) {
      errors[key] = [`Falta a etapa "${stepByKey(key).label}".`];
      continue;
    }
    const problems = await sectionProblems(db, actor, registration, key, value);
    if (Object.keys(problems).length > 0) errors[key] = [...new Set(Object.values(problems).flat())];
  }
  return errors;
}

export interface Confirmed {
  cnpj: string;
  notice: 'cadastrado' | 'alterado';
}

/**
 * "Ativar" a new registration or "Salvar alterações" of an active company: everything in one
 * transaction under the CNPJ's lock, so two activations of one CNPJ create one company (the second
 * finds it and gets a 409), and a refusal anywhere — the administrator's e-mail taken meanwhile, an
 * offer no longer in force — leaves nothing written and the draft as it was.
 */
export async function confirmRegistration(
  db: Db,
  actor: CompanyActor,
  kind: CompanyKind,
  cnpj: string,
  action: DraftAction,
  ip: string | null,
): Promise<Confirmed> {
  const outcome = await asConflict(
    db.transaction().execute(async (trx) => {
      await lockCompany(trx, cnpj);
      const opened = await openRegistration(trx, actor, kind, { cnpj, action });
      if (opened.kind === 'no-draft') {
        const exists = await trx.selectFrom('companies').select('id').where('cnpj', '=', cnpj).executeTakeFirst();
        if (exists) throw conflict(`${M.duplicateCnpj} O cadastro foi concluído por outra pessoa.`, { cnpj: [M.duplicateCnpj] });
      }
      if (opened.kind !== 'ok') throw notFound(NOT_FOUND_MESSAGE);
      const registration = opened.registration;
      if (action === 'novo' && !registration.stored) throw notFound(NOT_FOUND_MESSAGE);
      const problems = await confirmationProblems(trx, actor, registration);
      if (Object.keys(problems).length > 0) refused(problems);
      return action === 'novo' ? activate(trx, actor, registration, ip) : applyEdit(trx, actor, registration, ip);
    }),
  );
  announce(db, OFFERS_CHANGED);
  announce(db, { kind: 'principals' });
  return outcome;
}

const contactsOf = (draft: CompanyDraft) => JSON.stringify({ responsavel: draft.responsavel, comercial: draft.comercial });

async function activate(trx: Db, actor: CompanyActor, registration: Registration, ip: string | null): Promise<Confirmed> {
  const { kind, draft } = registration;
  const empresa = draft.empresa!;
  const partner = kind === 'SUBSTABELECIDO' ? await draftPartner(trx, actor, empresa) : undefined;
  const company = await trx
    .insertInto('companies')
    .values({
      cnpj: empresa.cnpj,
      razao_social: empresa.razaoSocial,
      nome_fantasia: empresa.nomeFantasia,
      tipo: kind,
      parent_id: partner?.id ?? null,
      channel_id: await channelIdOf(trx, empresa, partner),
      status: 'ATIVO',
      corretora: empresa.corretora,
      susep: empresa.susep || null,
      endereco: JSON.stringify(draft.endereco),
      contatos: contactsOf(draft),
      conta_comissao: JSON.stringify(draft.conta),
      activated_at: now(),
      created_at: now(),
      created_by: actor.userId,
    })
    .returning(['id', 'cnpj', 'nome_fantasia'])
    .executeTakeFirstOrThrow();
  const codes = await writeOffers(
    trx,
    kind,
    { id: company.id, nome: company.nome_fantasia, parentId: partner?.id ?? null },
    draft.ofertas ?? [],
  );
  // A partner's administrators administer its substabelecidos too, as the demo's do Vale Verde.
  if (partner) await linkPartnerAdmins(trx, partner.id, company.id);
  const admin = draft.administrador!;
  await insertV2User(
    trx,
    userActor(actor, company.id),
    {
      dados: { cpf: admin.cpf, nome: admin.nome, email: admin.email, celular: admin.celular, perfil: ADMINISTRATOR_PROFILE[kind] },
      vinculo: { empresas: [company.cnpj], pontoVenda: '', grupoPermissao: '', operacoes: administratorOperations(kind, codes) },
    },
    ip,
  );
  await trx.deleteFrom('company_drafts').where('cnpj', '=', company.cnpj).where('acao', '=', 'novo').execute();
  await logCompany(trx, actor, COMPANY_EVENTS[kind].cadastrado, company, ip, [
    `seções: ${SECTION_KEYS.map((k) => stepByKey(k).label.toLowerCase()).join(', ')}`,
    `produtos: ${codes.join(', ')}`,
    `conta: ${maskedDestination(draft.conta!)}`,
  ]);
  // The partner's administrators hear of their new company with the 'principals' notice after the commit.
  return { cnpj: company.cnpj, notice: 'cadastrado' };
}

/**
 * The actor as the user rules see them, for the first administrator: the new company is theirs to
 * give (it is not among their linked companies yet). The checks of issue 16 still apply: a profile
 * and operations they may give.
 */
function userActor(actor: CompanyActor, companyId: number): V2Actor {
  return {
    generation: 'v2',
    userId: actor.userId,
    profile: actor.profile,
    operations: actor.operations,
    companyIds: [...actor.companies.map((c) => c.id), companyId],
  };
}

/** Links the partner's PARCEIRO_ADMINs (active or yet to do the first access) to its new substabelecido. */
async function linkPartnerAdmins(trx: Db, partnerId: number, subId: number): Promise<void> {
  const admins = await trx
    .selectFrom('users as u')
    .innerJoin('user_companies as uc', 'uc.user_id', 'u.id')
    .select('u.id')
    .where('uc.company_id', '=', partnerId)
    .where('u.profile', '=', 'parceiro_admin')
    .where('u.status', 'in', ['ATIVO', 'PENDENTE'])
    .execute();
  if (admins.length > 0)
    await trx
      .insertInto('user_companies')
      .values(admins.map((a) => ({ user_id: a.id, company_id: subId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/**
 * Writes the step's offers: each product (or partner's offer) chosen updates the offer the step
 * manages for it or creates one; one no longer chosen is deactivated — never deleted, its sales point
 * at it. A partner's offers of other products (legacy ones, made at /v2/ofertas) are left alone.
 * Answers the products chosen.
 */
async function writeOffers(
  trx: Db,
  kind: CompanyKind,
  company: { id: number; nome: string; parentId: number | null },
  choices: PartnerOfferChoice[] | SubOfferChoice[],
): Promise<string[]> {
  const simulators = await trx.selectFrom('simulators').select(['id', 'code', 'nome', 'ativo']).execute();
  const existing = await trx
    .selectFrom('offers')
    .select(['id', 'simulator_id', 'ativo', 'parent_offer_id', 'comissao_centesimos', 'vigencia_inicio'])
    .where('company_id', '=', company.id)
    .orderBy('id')
    .execute();
  const codes: string[] = [];
  if (kind === 'PARCEIRO') {
    const chosen = choices as PartnerOfferChoice[];
    for (const simulator of simulators.filter((s) => s.ativo && findSimulatorCode(s.code)?.v2)) {
      const choice = chosen.find((c) => c.simulador === simulator.code);
      const own = existing.filter((o) => o.simulator_id === simulator.id && o.parent_offer_id === null);
      const managed = own.find((o) => o.ativo);
      if (!choice) {
        if (own.some((o) => o.ativo))
          await trx
            .updateTable('offers')
            .set({ ativo: false })
            .where(
              'id',
              'in',
              own.filter((o) => o.ativo).map((o) => o.id),
            )
            .execute();
        continue;
      }
      codes.push(simulator.code);
      if (managed) {
        if (managed.comissao_centesimos !== choice.comissao || managed.vigencia_inicio !== choice.inicio)
          await trx
            .updateTable('offers')
            .set({ comissao_centesimos: choice.comissao, vigencia_inicio: choice.inicio })
            .where('id', '=', managed.id)
            .execute();
      } else
        await trx
          .insertInto('offers')
          .values({
            simulator_id: simulator.id,
            company_id: company.id,
            nome: `${simulator.nome} — ${company.nome}`,
            vigencia_inicio: choice.inicio,
            vigencia_fim: null,
            comissao_centesimos: choice.comissao,
            created_at: now(),
          })
          .execute();
    }
    return codes;
  }
  const chosen = choices as SubOfferChoice[];
  const parents = chosen.length
    ? await trx
        .selectFrom('offers as o')
        .innerJoin('simulators as s', 's.id', 'o.simulator_id')
        .select(['o.id', 'o.simulator_id', 's.code', 's.nome'])
        .where(
          'o.id',
          'in',
          chosen.map((c) => c.oferta),
        )
        .execute()
    : [];
  for (const choice of chosen) {
    const parent = parents.find((p) => p.id === choice.oferta)!;
    codes.push(parent.code);
    const derived = existing.find((o) => o.parent_offer_id === choice.oferta);
    if (derived)
      await trx
        .updateTable('offers')
        .set({ comissao_centesimos: choice.comissao, vigencia_inicio: choice.inicio, ativo: true })
        .where('id', '=', derived.id)
        .execute();
    else
      await trx
        .insertInto('offers')
        .values({
          simulator_id: parent.simulator_id,
          company_id: company.id,
          parent_offer_id: parent.id,
          nome: `${parent.nome} — ${company.nome}`,
          vigencia_inicio: choice.inicio,
          vigencia_fim: null,
          comissao_centesimos: choice.comissao,
          created_at: now(),
        })
        .execute();
  }
  const dropped = existing.filter((o) => o.ativo && o.parent_offer_id !== null && !chosen.some((c) => c.oferta === o.parent_offer_id));
  if (dropped.length > 0)
    await trx
      .updateTable('offers')
      .set({ ativo: false })
      .where(
        'id',
        'in',
        dropped.map((o) => o.id),
      )
      .execute();
  return [...new Set(codes)];
}

async function applyEdit(trx: Db, actor: CompanyActor, registration: Registration, ip: string | null): Promise<Confirmed> {
  const { kind, draft } = registration;
  const company = registration.company!;
  const before = sectionsOf(company);
  const empresa = draft.empresa!;
  const partner =
    company.parentId === null
      ? undefined
      : await trx.selectFrom('companies').select('channel_id').where('id', '=', company.parentId).executeTakeFirstOrThrow();
  await trx
    .updateTable('companies')
    .set({
      channel_id: await channelIdOf(trx, empresa, partner),
      razao_social: empresa.razaoSocial,
      nome_fantasia: empresa.nomeFantasia,
      corretora: empresa.corretora,
      susep: empresa.susep || null,
      endereco: JSON.stringify(draft.endereco),
      contatos: contactsOf(draft),
      conta_comissao: JSON.stringify(draft.conta),
    })
    .where('id', '=', company.id)
    .execute();
  // A substabelecido sells through its partner's channel: it follows the partner's.
  if (kind === 'PARCEIRO')
    await trx
      .updateTable('companies')
      .set({ channel_id: sql`(select channel_id from companies p where p.id = ${company.id})` })
      .where('parent_id', '=', company.id)
      .execute();
  const changed = SECTION_KEYS.filter((k) => k !== 'administrador' && JSON.stringify(before[k]) !== JSON.stringify(draft[k]));
  // A substabelecido still inheriting its partner's offers, with none chosen, keeps inheriting.
  if (changed.includes('ofertas'))
    await writeOffers(trx, kind, { id: company.id, nome: empresa.nomeFantasia, parentId: company.parentId }, draft.ofertas ?? []);
  await trx.deleteFrom('company_drafts').where('cnpj', '=', company.cnpj).where('acao', '=', 'editar').execute();
  await logCompany(
    trx,
    actor,
    COMPANY_EVENTS[kind].alterado,
    { id: company.id, cnpj: company.cnpj, nome_fantasia: empresa.nomeFantasia },
    ip,
    [
      changed.length ? `seções: ${changed.map((k) => stepByKey(k).label.toLowerCase()).join(', ')}` : 'sem alterações',
      ...(changed.includes('conta') ? [`conta: ${maskedDestination(draft.conta!)}`] : []),
    ],
  );
  return { cnpj: company.cnpj, notice: 'alterado' };
}

/** An access_events row of a change to a company: its actor (the target is a company, not a user), what changed in words. */
async function logCompany(
  trx: Db,
  actor: CompanyActor,
  event: CompanyEvent,
  company: { id: number; cnpj: string; nome_fantasia: string },
  ip: string | null,
  details: string[],
) {
  const who = await trx.selectFrom('users').select('email').where('id', '=', actor.userId).executeTakeFirst();
  await appendAccessEvent(trx, {
    event,
    generation: 'v2',
    email: who?.email ?? '',
    userId: actor.userId,
    actorId: actor.userId,
    ip,
    detalhe: [`empresa: ${formatCnpj(company.cnpj)} (${company.nome_fantasia})`, ...details].join('; '),
    companyId: company.id,
  });
}

/** What the access log calls each change of a company. */
const COMPANY_EVENTS = {
  PARCEIRO: {
    cadastrado: 'PARCEIRO_CADASTRADO',
    alterado: 'PARCEIRO_ALTERADO',
    suspender: 'PARCEIRO_SUSPENSO',
    reativar: 'PARCEIRO_REATIVADO',
  },
  SUBSTABELECIDO: {
    cadastrado: 'SUBSTABELECIDO_CADASTRADO',
    alterado: 'SUBSTABELECIDO_ALTERADO',
    suspender: 'SUBSTABELECIDO_SUSPENSO',
    reativar: 'SUBSTABELECIDO_REATIVADO',
  },
} as const satisfies Record<CompanyKind, Record<string, AccessEventCode>>;
type CompanyEvent = (typeof COMPANY_EVENTS)[CompanyKind][keyof (typeof COMPANY_EVENTS)['PARCEIRO']];

// ─── Suspension ──────────────────────────────────────────────────────────────────────────────────

export type StatusOperation = 'suspender' | 'reativar';

/**
 * Suspends (with a reason) or reactivates a company. Suspending stops it — and, for a partner, every
 * substabelecido under it: the users left with no working company are signed out in the same
 * transaction (their sessions revoked) and refused at sign-in; the offers stop being sold (the
 * companies trigger tells every instance). Nothing else is touched: policies, commissions, reports
 * stay. Answers how many users were signed out.
 */
export async function setCompanyStatus(
  db: Db,
  actor: CompanyActor,
  kind: CompanyKind,
  cnpj: string,
  operation: StatusOperation,
  motivo: string | null,
  ip: string | null,
): Promise<{ signedOut: number; notice: 'suspenso' | 'reativado' }> {
  const result = await db.transaction().execute(async (trx) => {
    await lockCompany(trx, cnpj);
    const company = await trx
      .selectFrom('companies')
      .select(['id', 'cnpj', 'tipo', 'parent_id', 'status', 'nome_fantasia'])
      .where('cnpj', '=', cnpj)
      .executeTakeFirst();
    if (!company || company.tipo !== kind || !mayManageCompany(actor, { tipo: company.tipo, parentId: company.parent_id }))
      throw notFound(NOT_FOUND_MESSAGE);
    const wanted: CompanyStatus = operation === 'suspender' ? 'SUSPENSO' : 'ATIVO';
    if (company.status === wanted) throw conflict(operation === 'suspender' ? 'A empresa já está suspensa.' : 'A empresa já está ativa.');
    if (operation === 'suspender' && !motivo) refuse({ motivo: [M.motivo] }, 'invalid');
    await trx
      .updateTable('companies')
      .set(
        operation === 'suspender'
          ? { status: 'SUSPENSO', suspended_at: now(), suspended_by: actor.userId, motivo_suspensao: motivo }
          : { status: 'ATIVO', suspended_at: null, suspended_by: null, motivo_suspensao: null },
      )
      .where('id', '=', company.id)
      .execute();
    let out: { id: number; email: string }[] = [];
    if (operation === 'suspender') {
      const subs = kind === 'PARCEIRO' ? await trx.selectFrom('companies').select('id').where('parent_id', '=', company.id).execute() : [];
      out = await usersLeftOut(trx, [company.id, ...subs.map((s) => s.id)]);
      if (out.length > 0)
        await trx
          .updateTable('sessions')
          .set({ revoked_at: now() })
          .where(
            'user_id',
            'in',
            out.map((u) => u.id),
          )
          .where('revoked_at', 'is', null)
          .execute();
    }
    await logCompany(trx, actor, COMPANY_EVENTS[kind][operation], company, ip, [
      ...(motivo ? [`motivo: ${motivo}`] : []),
      ...(operation === 'suspender' ? [`usuários desconectados: ${out.length}`] : []),
    ]);
    return { out };
  });
  announce(db, OFFERS_CHANGED);
  announce(db, { kind: 'principals' });
  for (const user of result.out) announce(db, { kind: 'user', userId: user.id });
  return { signedOut: result.out.length, notice: operation === 'suspender' ? 'suspenso' : 'reativado' };
}

// ─── The lists ───────────────────────────────────────────────────────────────────────────────────

export interface CompanyListRow {
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string;
  susep: string | null;
  /** A substabelecido's partner. */
  parceiro: string | null;
  ofertas: number;
  substabelecidos: number;
  usuarios: number;
  status: CompanyStatus | 'EM_CADASTRO';
  /** The viewer may change it (edit, suspend, continue). */
  manageable: boolean;
}

const STATUS_OF_FILTER = { ativo: 'ATIVO', suspenso: 'SUSPENSO', 'em-cadastro': 'EM_CADASTRO' } as const;
const likeText = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list's filters as one condition over the listed rows. */
function filtersOf(query: CompanyListQuery) {
  const conditions = [sql`true`];
  if (query.cnpj) conditions.push(sql`cnpj like ${likeText(query.cnpj)}`);
  if (query.nome) conditions.push(sql`(razao_social ilike ${likeText(query.nome)} or nome_fantasia ilike ${likeText(query.nome)})`);
  const status = STATUS_OF_FILTER[query.status as keyof typeof STATUS_OF_FILTER];
  if (status) conditions.push(sql`status = ${status}`);
  return sql.join(conditions, sql` and `);
}

/**
 * A page of the kind's companies the actor sees — the new ones still in registration listed with
 * them — filtered by CNPJ (any part, mask or not), name (razão social or fantasia) and status.
 */
export async function listCompanies(db: Db, actor: CompanyActor, kind: CompanyKind, query: CompanyListQuery) {
  const partners = kind === 'PARCEIRO' ? (mayManagePartners(actor) ? 'all' : []) : managedPartners(actor);
  const own = actor.companies.filter((c) => c.tipo === kind).map((c) => c.id);
  const ids = (list: number[]) => (list.length ? sql.join(list.map((id) => sql`${id}`)) : sql`null`);
  // Who opens the substabelecidos' list sees their own company there too, without changing it.
  const companyScope =
    partners === 'all' ? sql`true` : kind === 'PARCEIRO' ? sql`false` : sql`(c.parent_id in (${ids(partners)}) or c.id in (${ids(own)}))`;
  const draftScope = partners === 'all' ? sql`true` : kind === 'PARCEIRO' ? sql`false` : sql`d.parent_id in (${ids(partners)})`;
  const base = sql`
    with listed as (
      select c.cnpj, c.razao_social, c.nome_fantasia, c.susep, c.status, c.parent_id, p.nome_fantasia as parceiro,
        (select count(*) from offers o where o.company_id = c.id and o.ativo)::int as ofertas,
        (select count(*) from companies s where s.parent_id = c.id)::int as substabelecidos,
        (select count(*) from user_companies uc where uc.company_id = c.id)::int as usuarios
      from companies c left join companies p on p.id = c.parent_id
      where c.tipo = ${kind} and ${companyScope}
      union all
      select d.cnpj, d.dados->'empresa'->>'razaoSocial', d.dados->'empresa'->>'nomeFantasia', nullif(d.dados->'empresa'->>'susep', ''),
        'EM_CADASTRO', d.parent_id, p.nome_fantasia, 0, 0, 0
      from company_drafts d left join companies p on p.id = d.parent_id
      where d.tipo = ${kind} and d.acao = 'novo' and ${draftScope}
    )
    select * from listed where ${filtersOf(query)}`;
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<{
      cnpj: string;
      razao_social: string | null;
      nome_fantasia: string | null;
      susep: string | null;
      status: CompanyStatus | 'EM_CADASTRO';
      parent_id: number | null;
      parceiro: string | null;
      ofertas: number;
      substabelecidos: number;
      usuarios: number;
    }>`${base} order by razao_social, cnpj limit ${COMPANY_PAGE_SIZE} offset ${(query.pagina - 1) * COMPANY_PAGE_SIZE}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from (${base}) counted`.execute(db),
  ]);
  const total = count[0]?.n ?? 0;
  return {
    content: rows.map(
      (r): CompanyListRow => ({
        cnpj: r.cnpj,
        razaoSocial: r.razao_social ?? '',
        nomeFantasia: r.nome_fantasia ?? '',
        susep: r.susep,
        parceiro: r.parceiro,
        ofertas: r.ofertas,
        substabelecidos: r.substabelecidos,
        usuarios: r.usuarios,
        status: r.status,
        manageable: kind === 'PARCEIRO' ? partners === 'all' : managesPartner(actor, r.parent_id),
      }),
    ),
    totalElements: total,
    totalPages: Math.ceil(total / COMPANY_PAGE_SIZE),
    page: query.pagina,
  };
}
