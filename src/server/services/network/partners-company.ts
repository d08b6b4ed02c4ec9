import { sql, type Selectable } from 'kysely';
import type { DB } from '../../db';
import type { CompaniesTable } from '../../db/schema';
import { principalFacts, profileOf } from '../identity/principals';
import type { Address } from '../../../lib/products/insured';
import type { PayeeAccount } from '../../../lib/refund-account';
import { readDraft, readSection, type CompanyDraft, type Commercial, type Responsible } from '../../../lib/partner-forms';
import {
  managedPartners,
  mayManageCompany,
  mayManagePartners,
  mayOnboard,
  mayOpenSubs,
  maySeeCompany,
  onboardingProducts,
  type CompanyAction,
  type CompanyActor,
  type CompanyKind,
  type CompanyStatus,
  type DraftAction,
  type PartnerOfferChoice,
  type SubOfferChoice,
} from '../../../lib/partners';

/*
 * Partners and substabelecidos (issue 17, decision 052), the company as the onboarding reads it: who
 * asks, a company as the steps and the review read it, and what a step's address opens (a new
 * registration, its draft, an active company to edit or view). The steps are partners-steps.ts, the
 * activation and the edit partners-confirm.ts, the suspension partners-status.ts, the lists
 * partners-lists.ts. The rules are lib/partners.ts and lib/partner-forms.ts.
 */

export const NOT_FOUND_MESSAGE = 'Empresa não encontrada entre as que você administra.';

// ─── Who asks ────────────────────────────────────────────────────────────────────────────────────

export async function companyActorOf(db: DB, user: { id: number; profile: string | null }): Promise<CompanyActor> {
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

async function readCompany(db: DB, where: { cnpj: string } | { id: number }): Promise<CompanyRecord | undefined> {
  let query = db.selectFrom('companies').selectAll();
  query = 'cnpj' in where ? query.where('cnpj', '=', where.cnpj) : query.where('id', '=', where.id);
  const row = await query.executeTakeFirst();
  return row && (await recordOf(db, row));
}

async function recordOf(db: DB, row: CompanyRow): Promise<CompanyRecord> {
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
export function sectionsOf(company: CompanyRecord): CompanyDraft {
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

export const draftRow = (db: DB, cnpj: string, acao: DraftAction) =>
  db
    .selectFrom('company_drafts')
    .select(['tipo', 'parent_id', 'dados', 'updated_at'])
    .where('cnpj', '=', cnpj)
    .where('acao', '=', acao)
    .executeTakeFirst();

export const managesPartner = (actor: CompanyActor, partnerId: number | null) => {
  const partners = managedPartners(actor);
  return partnerId !== null && (partners === 'all' || partners.includes(partnerId));
};

/**
 * What a step's address opens: a new registration (no CNPJ), a new one's draft, or an active
 * company to edit or view. Anything the actor may not manage — another partner's draft, a company
 * not under their partners, one of the other kind — is not found, told apart from nothing.
 */
export async function openRegistration(
  db: DB,
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
