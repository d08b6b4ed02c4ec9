import { sql } from 'kysely';
import * as z from 'zod/mini';
import type { DB } from '../../db';
import { notFound, conflict } from '../../errors';
import { now } from '../../clock';
import { refuse } from './user-admin-writing';
import { PORTAL_CHANNEL } from '../../../lib/hierarchy';
import { brasiliaDay } from '../../../lib/format';
import { isInForce } from '../../../lib/offer-validity';
import { findSimulatorCode } from '../../../lib/simulators';
import { COMPANY_FORM_MESSAGES, sectionSchema, stepErrors, type Administrator, type CompanyData } from '../../../lib/partner-forms';
import {
  managedPartners,
  mayOnboard,
  onboardingProducts,
  partnerOfferProblems,
  remunerationLimit,
  SECTION_KEYS,
  stepByKey,
  stepReachable,
  OFFER_MESSAGES,
  subOfferProblems,
  type CompanyActor,
  type CompanyKind,
  type DraftAction,
  type FieldErrors,
  type ParentOffer,
  type PartnerOfferChoice,
  type SectionKey,
  type SubOfferChoice,
} from '../../../lib/partners';
import { draftRow, managesPartner, NOT_FOUND_MESSAGE, openRegistration, type Registration } from './partners-company';

/*
 * A partner's or substabelecido's onboarding steps (issue 17, decision 052): what each step may choose
 * among, each step's rules beyond its schema, and saving a step in its draft.
 */

// ─── What each step may choose among ─────────────────────────────────────────────────────────────

export interface PartnerOption {
  id: number;
  cnpj: string;
  nome: string;
}

/** The partners a new substabelecido may be put under: the active ones the actor manages. */
export async function partnerOptions(db: DB, actor: CompanyActor): Promise<PartnerOption[]> {
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
export async function productOptions(db: DB): Promise<ProductOption[]> {
  const active = await db.selectFrom('simulators').select('code').where('ativo', '=', true).execute();
  return onboardingProducts(active.map((s) => s.code)).map((p) => ({ code: p.code, name: p.name, limit: remunerationLimit(p.code)! }));
}

export interface PartnerOfferOption extends ParentOffer {
  code: string;
  nome: string;
  vigenciaFim: string | null;
}

/** A partner's offers in force today (its own, of active v2 simulators): what a substabelecido may derive from. */
export async function partnerOffersInForce(db: DB, partnerId: number, today = now()): Promise<PartnerOfferOption[]> {
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

const partnerByCnpj = (db: DB, cnpj: string) =>
  db
    .selectFrom('companies')
    .select(['id', 'status', 'tipo', 'channel_id'])
    .where('cnpj', '=', cnpj)
    .where('tipo', '=', 'PARCEIRO')
    .executeTakeFirst();

const activeChannel = (db: DB, codigo: string) =>
  db.selectFrom('channels').select('id').where('codigo', '=', codigo).where('status', '=', 'ATIVO').executeTakeFirst();

/** The active sales channels a partner may be given (the company step's choice). */
export async function channelOptions(db: DB): Promise<{ codigo: string; nome: string }[]> {
  return db.selectFrom('channels').select(['codigo', 'nome']).where('status', '=', 'ATIVO').orderBy('nome').execute();
}

/** The channel a company sells through: a partner's of its step, a substabelecido's its partner's. */
export async function channelIdOf(trx: DB, empresa: CompanyData, partner: { channel_id: number } | undefined): Promise<number> {
  if (partner) return partner.channel_id;
  const row = await trx
    .selectFrom('channels')
    .select('id')
    .where('codigo', '=', empresa.canal ?? PORTAL_CHANNEL)
    .executeTakeFirst();
  return row?.id ?? refused({ canal: [M.canal] });
}

/** The partner a draft's company data names (a substabelecido's), when the actor manages it. */
export async function draftPartner(db: DB, actor: CompanyActor, empresa: CompanyData | undefined) {
  if (!empresa?.parceiro) return undefined;
  const partner = await partnerByCnpj(db, empresa.parceiro);
  return partner && managesPartner(actor, partner.id) ? partner : undefined;
}

/** The partner's offers in force a substabelecido's offers step may derive from. */
async function offersToDeriveFrom(db: DB, actor: CompanyActor, registration: Registration) {
  const partner = registration.company?.parentId ?? (await draftPartner(db, actor, registration.draft.empresa))?.id;
  return partner === undefined || partner === null ? [] : partnerOffersInForce(db, partner);
}

/**
 * A substabelecido's offers step naming an offer that is not one of its partner's in force — typed by
 * hand, or a checkbox added or changed in the browser, usually without the fields of its row. That is
 * what is wrong, whatever else is (issue 27: the row's fields' messages named fields the page does not
 * show).
 */
async function offersOutsidePartner(db: DB, actor: CompanyActor, registration: Registration, input: unknown): Promise<boolean> {
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
export async function sectionProblems(
  db: DB,
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
async function derivedAbove(db: DB, partnerId: number): Promise<Map<string, { nome: string; comissao: number }[]>> {
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
export async function asConflict<T>(work: Promise<T>): Promise<T> {
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
export const refused = (errors: FieldErrors): never => refuse(errors, statusOf(errors));

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
  db: DB,
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
  db: DB,
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
