import { sql } from 'kysely';
import { appendAccessEvent } from '../identity/access-log';
import type { AccessEventCode } from '../../../lib/access-log';
import type { DB } from '../../db';
import { notFound, conflict } from '../../errors';
import { announce } from '../../cache';
import { now } from '../../clock';
import { insertV2User } from './user-admin-v2';
import { OFFERS_CHANGED } from './offers';
import { maskedDestination } from '../../../lib/cancellation';
import { findSimulatorCode } from '../../../lib/simulators';
import { formatCnpj } from '../../../lib/validators';
import type { V2Actor } from '../../../lib/user-admin';
import { COMPANY_FORM_MESSAGES, type CompanyDraft } from '../../../lib/partner-forms';
import {
  ADMINISTRATOR_PROFILE,
  administratorOperations,
  SECTION_KEYS,
  stepByKey,
  type CompanyActor,
  type CompanyKind,
  type DraftAction,
  type FieldErrors,
  type PartnerOfferChoice,
  type SubOfferChoice,
} from '../../../lib/partners';
import { NOT_FOUND_MESSAGE, openRegistration, sectionsOf, type Registration } from './partners-company';
import { asConflict, channelIdOf, draftPartner, refused, sectionProblems } from './partners-steps';

/*
 * Confirming a partner's or substabelecido's registration (issue 17, decision 052): the activation of
 * a new one and the edit of an active one, each in one transaction, logged in access_events (never a
 * whole bank account).
 */

const M = COMPANY_FORM_MESSAGES;

// ─── Confirming: activation of a new one, the edit of an active one ──────────────────────────────

export const lockCompany = (trx: DB, cnpj: string) => sql`select pg_advisory_xact_lock(hashtext(${`company:${cnpj}`}))`.execute(trx);

/** Every section a confirmation needs, each checked again (rules may have changed since its step): problems by section. */
async function confirmationProblems(db: DB, actor: CompanyActor, registration: Registration): Promise<FieldErrors> {
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
  db: DB,
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

async function activate(trx: DB, actor: CompanyActor, registration: Registration, ip: string | null): Promise<Confirmed> {
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
async function linkPartnerAdmins(trx: DB, partnerId: number, subId: number): Promise<void> {
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
  trx: DB,
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

async function applyEdit(trx: DB, actor: CompanyActor, registration: Registration, ip: string | null): Promise<Confirmed> {
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
export async function logCompany(
  trx: DB,
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
export const COMPANY_EVENTS = {
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
