import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { messagesByField } from './field-errors';
import {
  canV1,
  canV2,
  MANAGE_USERS_V1,
  MANAGE_USERS_V2,
  OPERATIONS,
  PROFILES,
  RESTRICTED_OPERATION,
  V1_ADMIN_GROUP,
  type Profile,
  type V1Permission,
} from './permissions';
import { SIMULATOR_CODES } from './simulators';
import { FULL_NAME_MESSAGES, fullNameProblem, isFullName, normalizeName } from './full-name';
import { digitsOnly, isValidCpf, normalizeEmail, parsePhone } from './validators';
import { EMAIL_MESSAGES, emailRule } from './email-field';

/*
 * User administration (issue 16, decision 046): who may manage whom and grant what, in both
 * generations, and the forms' schemas. Pure: the pages, the API and the service all ask these rules,
 * and the service hands them what the database says.
 *
 *   v1  the legacy admin group manages every legacy user; a group holding USUARIOS lists (VIEW) and
 *       changes (EDIT) the users of its own company, and grants only groups whose every permission it
 *       holds itself (never the admin group).
 *   v2  ADMIN manages everyone; PARCEIRO_ADMIN the users of the companies they administer; a
 *       SUBSTABELECIDO (or PARCEIRO) holding GERENCIAR_USUARIOS those of its own company. Nobody
 *       grants a profile above their own nor an operation they do not hold (ADMIN holds all).
 *   Both: nobody changes their own status, and no change leaves the portal without an active
 *       administrator (the legacy admin group, ADMIN, or a company's PARCEIRO_ADMIN).
 */

// ─── Statuses ────────────────────────────────────────────────────────────────────────────────────

/** As stored; PENDENTE (first access not done) is set by registration, never chosen in a form. */
export const USER_STATUSES = ['ATIVO', 'PENDENTE', 'INATIVO', 'BLOQUEADO'] as const;
export type UserStatusCode = (typeof USER_STATUSES)[number];
export const STATUS_LABELS: Record<UserStatusCode, string> = {
  ATIVO: 'Ativo',
  PENDENTE: 'Pendente (1º acesso)',
  INATIVO: 'Inativo',
  BLOQUEADO: 'Bloqueado',
};
export const STATUS_TONES: Record<UserStatusCode, 'success' | 'brand' | 'warning' | 'danger'> = {
  ATIVO: 'success',
  PENDENTE: 'brand',
  INATIVO: 'danger',
  BLOQUEADO: 'warning',
};
/** What a form offers (the issue's ativo/inativo/bloqueado), in the form's lower case. */
export const FORM_STATUSES = ['ativo', 'inativo', 'bloqueado'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];
export const statusOfForm = (value: FormStatus): UserStatusCode => value.toUpperCase() as UserStatusCode;
/** A stored status as the form shows it: a pending user is 'ativo' (it becomes so at first access). */
export const formStatusOf = (status: UserStatusCode): FormStatus =>
  status === 'PENDENTE' ? 'ativo' : (status.toLowerCase() as FormStatus);
/** A status that ends the user's sessions at once. */
export const isLockedOut = (status: UserStatusCode) => status === 'INATIVO' || status === 'BLOQUEADO';

export const PROFILE_LABELS: Record<Profile, string> = {
  ADMIN: 'Administrador da seguradora',
  PARCEIRO_ADMIN: 'Administrador do parceiro',
  PARCEIRO: 'Parceiro',
  SUBSTABELECIDO: 'Substabelecido',
};

export const OPERATION_LABELS: Record<string, string> = {
  COTAR_VENDER: 'Cotar e vender',
  HISTORICO_COTACAO_PROPOSTA: 'Histórico de cotações e propostas',
  RELATORIO_VENDAS: 'Relatório de vendas',
  METRICAS: 'Métricas',
  APOLICE_VENDEDOR: 'Apólices (as próprias)',
  APOLICE_EMPRESA: 'Apólices (da empresa)',
  BOLETOS_VENDEDOR: 'Boletos (os próprios)',
  BOLETOS_EMPRESA: 'Boletos (da empresa)',
  INFORME_RENDIMENTO: 'Informe de rendimentos',
  DOCUMENTOS: 'Documentos',
  GERENCIAR_USUARIOS: 'Gerenciar usuários',
  GERENCIAR_PARCEIRO: 'Gerenciar parceiros',
  GERENCIAR_PERMISSOES: 'Gerenciar permissões',
  GERENCIAR_SUBSTABELECIDO: 'Gerenciar substabelecidos',
  GERENCIAR_PONTO_VENDA: 'Gerenciar pontos de venda',
  [RESTRICTED_OPERATION]: 'Operação restrita',
};
/** An offer operation names its simulators as partners read them (several codes may share one). */
const OFFER_PREFIX = 'OFERTAS_DISPONIVEIS_SIMULADORES_';
const offerLabel = (suffix: string) => {
  const names = SIMULATOR_CODES.filter((s) => s.offerSuffix === suffix).map((s) => s.name);
  return `Vender ${names.length > 0 ? names.join(' / ') : suffix.replace(/_/g, ' ').toLowerCase()}`;
};
export const operationLabel = (operation: string) =>
  OPERATION_LABELS[operation] ?? (operation.startsWith(OFFER_PREFIX) ? offerLabel(operation.slice(OFFER_PREFIX.length)) : operation);

// ─── Actors and the users they manage ────────────────────────────────────────────────────────────

export interface V1Actor {
  generation: 'v1';
  userId: number;
  groups: readonly string[];
  permissions: readonly V1Permission[];
  /** The legacy user's company (users.company_id). */
  companyId: number | null;
}
export interface V2Actor {
  generation: 'v2';
  userId: number;
  profile: Profile;
  operations: readonly string[];
  /** The companies the user is linked to: those a PARCEIRO_ADMIN administers, a manager's own. */
  companyIds: readonly number[];
}
export type Actor = V1Actor | V2Actor;

/** A user as the rules judge them. */
export interface ManagedUser {
  id: number;
  generation: 'v1' | 'v2';
  status: UserStatusCode;
  /** v2 */
  profile: Profile | null;
  operations: readonly string[];
  /** v2: linked companies; v1: the user's company, when any. */
  companyIds: readonly number[];
  /** v1 */
  groups: readonly string[];
}

export interface LegacyGroup {
  id: number;
  nome: string;
  isAdmin: boolean;
  permissions: readonly V1Permission[];
}

const isV1Admin = (actor: V1Actor) => actor.groups.includes(V1_ADMIN_GROUP);

/** May open the list (legacy USUARIOS VIEW; v2 ADMIN, PARCEIRO_ADMIN or GERENCIAR_USUARIOS). */
export function mayListUsers(actor: Actor): boolean {
  if (actor.generation === 'v1') return canV1({ profile: actor.groups, permissions: actor.permissions }, MANAGE_USERS_V1, 'VIEW');
  return canV2({ profile: actor.profile, cdOperacoes: actor.operations }, MANAGE_USERS_V2);
}

/** May create and change users (legacy USUARIOS EDIT; v2 the same rule as the list). */
export function mayChangeUsers(actor: Actor): boolean {
  if (actor.generation === 'v1') return canV1({ profile: actor.groups, permissions: actor.permissions }, MANAGE_USERS_V1, 'EDIT');
  return mayListUsers(actor);
}

/** The companies whose users the actor manages: 'all', or their ids. */
export function managedCompanies(actor: Actor): 'all' | readonly number[] {
  if (actor.generation === 'v1') return isV1Admin(actor) ? 'all' : actor.companyId ? [actor.companyId] : [];
  return actor.profile === 'ADMIN' ? 'all' : actor.companyIds;
}

const PROFILE_RANK: Record<Profile, number> = { ADMIN: 3, PARCEIRO_ADMIN: 2, PARCEIRO: 1, SUBSTABELECIDO: 1 };

/** The profiles an actor may give: their own and those below it (a PARCEIRO or SUBSTABELECIDO: only their own). */
export function grantableProfiles(actor: V2Actor): Profile[] {
  if (actor.profile === 'ADMIN' || actor.profile === 'PARCEIRO_ADMIN')
    return PROFILES.filter((p) => PROFILE_RANK[p] <= PROFILE_RANK[actor.profile]);
  return [actor.profile];
}

/**
 * The operations an actor holds and so may give. ADMIN holds every one; a PARCEIRO_ADMIN holds what
 * their profile already lets them do — every operation but managing partners (ADMIN's alone) —, and
 * anything given to them on top; everyone else exactly what they were given.
 */
export function heldOperations(actor: V2Actor): string[] {
  const all = [...OPERATIONS, RESTRICTED_OPERATION] as string[];
  if (actor.profile === 'ADMIN') return all;
  if (actor.profile === 'PARCEIRO_ADMIN')
    return all
      .filter((op) => op !== 'GERENCIAR_PARCEIRO' && op !== RESTRICTED_OPERATION)
      .concat(actor.operations.filter((op) => op === 'GERENCIAR_PARCEIRO'));
  return all.filter((op) => actor.operations.includes(op));
}

/** A group's permissions are all held by the actor (view for view, change for change). */
function holdsGroup(actor: V1Actor, group: LegacyGroup): boolean {
  const subject = { profile: actor.groups, permissions: actor.permissions };
  return group.permissions.every(
    (p) => (!p.permiteVisualizacao || canV1(subject, p.nome, 'VIEW')) && (!p.permiteAlteracao || canV1(subject, p.nome, 'EDIT')),
  );
}

/** The legacy groups an actor may give: all for the admin group; else those they hold wholly, never the admin group. */
export function grantableGroups(actor: V1Actor, groups: readonly LegacyGroup[]): LegacyGroup[] {
  if (isV1Admin(actor)) return [...groups];
  return groups.filter((g) => !g.isAdmin && g.nome !== V1_ADMIN_GROUP && holdsGroup(actor, g));
}

const within = (companies: 'all' | readonly number[], ids: readonly number[]) =>
  companies === 'all' || (ids.length > 0 && ids.every((id) => companies.includes(id)));

/**
 * May the actor change this user at all: same generation, every company of the user among those the
 * actor manages (a user shared with a company they do not administer is not theirs to change), and
 * nothing the user holds above what the actor may grant. Oneself is manageable (with the limits of
 * `changeProblems`).
 */
export function mayManage(actor: Actor, target: ManagedUser, groups: readonly LegacyGroup[] = []): boolean {
  if (target.generation !== actor.generation || !mayChangeUsers(actor)) return false;
  if (target.id === actor.userId) return true;
  const companies = managedCompanies(actor);
  if (actor.generation === 'v1') {
    if (isV1Admin(actor)) return true;
    const grantable = new Set(grantableGroups(actor, groups).map((g) => g.nome));
    return within(companies, target.companyIds) && target.groups.every((g) => grantable.has(g));
  }
  if (actor.profile === 'ADMIN') return true;
  if (!target.profile || !grantableProfiles(actor).includes(target.profile)) return false;
  return within(companies, target.companyIds);
}

/** May the actor see this user in the list (any company in common; the admin group and ADMIN every one). */
export function maySee(actor: Actor, target: Pick<ManagedUser, 'generation' | 'companyIds'>): boolean {
  if (target.generation !== actor.generation || !mayListUsers(actor)) return false;
  const companies = managedCompanies(actor);
  return companies === 'all' || target.companyIds.some((id) => companies.includes(id));
}

// ─── The change itself ───────────────────────────────────────────────────────────────────────────

/** The legacy group names asked for that no group has, or undefined when every one exists. */
export function unknownGroups(asked: readonly string[], groups: readonly Pick<LegacyGroup, 'nome'>[]): string | undefined {
  const unknown = [...new Set(asked.filter((name) => !groups.some((g) => g.nome === name)))];
  return unknown.length > 0 ? unknown.join(', ') : undefined;
}

export const USER_ADMIN_MESSAGES = {
  forbidden: 'Você não tem permissão para alterar usuários.',
  notManaged: 'Usuário não encontrado entre os que você administra.',
  profile: 'Perfil acima do seu: escolha um perfil que você possa conceder.',
  operation: 'Permissão que você não possui não pode ser concedida.',
  group: 'Grupo de acesso com permissões que você não possui.',
  /** A group name nobody registered (a typo in a file, an old API client): said so, not as a permission problem. */
  unknownGroup: (names: string) => `Grupo de acesso inexistente: ${names}. Confira os nomes em Grupos de acesso.`,
  company: 'Empresa fora das que você administra.',
  companyRequired: 'Selecione ao menos uma empresa.',
  companyType: 'Empresa incompatível com o perfil escolhido.',
  pointOfSale: 'Ponto de venda fora das empresas selecionadas.',
  unknownPointOfSale: 'Ponto de venda não encontrado nas empresas informadas.',
  pointOfSaleInactive: 'Ponto de venda inativo: escolha um ponto de venda ativo.',
  permissionGroup: 'Grupo de permissões de uma empresa não selecionada.',
  unknownPermissionGroup: 'Grupo de permissões não encontrado nas empresas informadas.',
  selfStatus: 'Você não pode desativar nem bloquear o próprio usuário.',
  lastAdmin: 'Não é possível: este é o último administrador ativo.',
  lastCompanyAdmin: 'Não é possível: este é o último administrador ativo da empresa.',
  duplicateEmail: 'E-mail já cadastrado para outro usuário.',
  duplicateCpf: 'CPF já cadastrado para outro usuário.',
} as const;

export type FieldErrors = Record<string, string[]>;

export interface CompanyFact {
  id: number;
  tipo: 'PARCEIRO' | 'SUBSTABELECIDO';
}

/** What a v2 change asks for, as the schema gives it (ids resolved by the service). */
export interface V2Grant {
  profile: Profile;
  operations: readonly string[];
  companies: readonly CompanyFact[];
  /** The point of sale's company, when one is chosen. */
  pointOfSaleCompanyId: number | null;
  /** The point of sale chosen is inactive and not where the user already works (decision 051: no new sellers). */
  pointOfSaleInactive?: boolean;
  /** The permission group chosen: its company and operations (the user holds them too). */
  permissionGroup?: { companyId: number; operations: readonly string[] } | null;
}

/** A v2 grant's problems by field: profile, operations, companies, point of sale. */
export function v2GrantProblems(actor: V2Actor, grant: V2Grant, before?: ManagedUser): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
  const unchangedProfile = before?.profile === grant.profile;
  if (!unchangedProfile && !grantableProfiles(actor).includes(grant.profile)) add('perfil', USER_ADMIN_MESSAGES.profile);
  const held = new Set(heldOperations(actor));
  // What the user already had stays theirs: an actor may keep what they could not give.
  const had = new Set(before?.operations ?? []);
  if (grant.operations.some((op) => !held.has(op) && !had.has(op))) add('operacoes', USER_ADMIN_MESSAGES.operation);
  // A group gives its operations: the actor must hold them as if checked one by one.
  const group = grant.permissionGroup;
  if (group?.operations.some((op) => !held.has(op) && !had.has(op))) add('grupoPermissao', USER_ADMIN_MESSAGES.operation);
  const companies = managedCompanies(actor);
  const ids = grant.companies.map((c) => c.id);
  const hadCompanies = new Set(before?.companyIds ?? []);
  if (grant.profile !== 'ADMIN') {
    if (ids.length === 0) add('empresas', USER_ADMIN_MESSAGES.companyRequired);
    else if (companies !== 'all' && ids.some((id) => !companies.includes(id) && !hadCompanies.has(id)))
      add('empresas', USER_ADMIN_MESSAGES.company);
    const wanted = grant.profile === 'PARCEIRO' ? 'PARCEIRO' : grant.profile === 'SUBSTABELECIDO' ? 'SUBSTABELECIDO' : undefined;
    if (wanted && grant.companies.some((c) => c.tipo !== wanted)) add('empresas', USER_ADMIN_MESSAGES.companyType);
  }
  if (grant.pointOfSaleCompanyId !== null && !ids.includes(grant.pointOfSaleCompanyId)) add('pontoVenda', USER_ADMIN_MESSAGES.pointOfSale);
  if (grant.pointOfSaleInactive) add('pontoVenda', USER_ADMIN_MESSAGES.pointOfSaleInactive);
  if (group && !ids.includes(group.companyId)) add('grupoPermissao', USER_ADMIN_MESSAGES.permissionGroup);
  return errors;
}

/** A v1 grant's problems: the groups and the company. */
export function v1GrantProblems(
  actor: V1Actor,
  grant: { groups: readonly string[]; companyId: number | null },
  groups: readonly LegacyGroup[],
  before?: ManagedUser,
): FieldErrors {
  const errors: FieldErrors = {};
  const grantable = new Set(grantableGroups(actor, groups).map((g) => g.nome));
  const had = new Set(before?.groups ?? []);
  if (grant.groups.some((g) => !grantable.has(g) && !had.has(g))) errors.grupos = [USER_ADMIN_MESSAGES.group];
  const companies = managedCompanies(actor);
  if (companies !== 'all') {
    if (grant.companyId === null) errors.empresa = [USER_ADMIN_MESSAGES.companyRequired];
    else if (!companies.includes(grant.companyId) && !before?.companyIds.includes(grant.companyId))
      errors.empresa = [USER_ADMIN_MESSAGES.company];
  }
  return errors;
}

/** Other active administrators besides the user changed: of the portal, and per company for PARCEIRO_ADMIN. */
export interface OtherAdmins {
  /** v1: active users of the admin group; v2: active ADMINs. */
  portal: number;
  /** v2: active PARCEIRO_ADMINs of each company the user administers now. */
  perCompany: ReadonlyMap<number, number>;
}

/** What makes a user an administrator, before or after a change. */
export interface AdminStanding {
  status: UserStatusCode;
  profile: Profile | null;
  groups: readonly string[];
  companyIds: readonly number[];
}

const activeish = (status: UserStatusCode) => status === 'ATIVO';

/**
 * The problems of a change to `before` → `after` made by `actorId`: oneself never changes one's own
 * status, and the last active administrator — of the legacy portal, of the v2 portal (ADMIN), or of
 * a company (PARCEIRO_ADMIN) — cannot stop being one, by status, profile, group or company.
 */
export function standingProblems(
  generation: 'v1' | 'v2',
  actorId: number,
  targetId: number,
  before: AdminStanding,
  after: AdminStanding,
  others: OtherAdmins,
): FieldErrors {
  const errors: FieldErrors = {};
  if (actorId === targetId && before.status !== after.status) errors.status = [USER_ADMIN_MESSAGES.selfStatus];
  const field = generation === 'v1' ? 'grupos' : 'perfil';
  const portalAdmin = (s: AdminStanding) =>
    activeish(s.status) && (generation === 'v1' ? s.groups.includes(V1_ADMIN_GROUP) : s.profile === 'ADMIN');
  if (portalAdmin(before) && !portalAdmin(after) && others.portal === 0) {
    const where = before.status !== after.status ? 'status' : field;
    errors[where] = [...(errors[where] ?? []), USER_ADMIN_MESSAGES.lastAdmin];
    return errors;
  }
  if (generation === 'v2' && activeish(before.status) && before.profile === 'PARCEIRO_ADMIN') {
    const stillAdmin = activeish(after.status) && after.profile === 'PARCEIRO_ADMIN';
    const lost = before.companyIds.filter((id) => !stillAdmin || !after.companyIds.includes(id));
    if (lost.some((id) => (others.perCompany.get(id) ?? 0) === 0)) {
      const where = before.status !== after.status ? 'status' : before.profile !== after.profile ? 'perfil' : 'empresas';
      errors[where] = [...(errors[where] ?? []), USER_ADMIN_MESSAGES.lastCompanyAdmin];
    }
  }
  return errors;
}

// ─── Forms ───────────────────────────────────────────────────────────────────────────────────────

export const USER_FORM_MESSAGES = {
  nome: FULL_NAME_MESSAGES.words,
  email: EMAIL_MESSAGES.required,
  cpf: 'CPF inválido.',
  celular: 'Celular inválido: use (DD) 9NNNN-NNNN.',
  perfil: 'Selecione o perfil.',
  status: 'Selecione a situação: ativo, inativo ou bloqueado.',
  empresa: 'Empresa inválida.',
  grupos: 'Grupo de acesso inválido.',
  gruposObrigatorio: 'Selecione ao menos um grupo de acesso.',
  operacoes: 'Permissão inválida.',
  pontoVenda: 'Ponto de venda inválido.',
  grupoPermissao: 'Grupo de permissões inválido.',
} as const;
const M = USER_FORM_MESSAGES;

/** An HTML form sends strings; a missing field and a blank one are the same. */
export const formText = (max: number, message: string) =>
  z.pipe(
    z.pipe(
      z.optional(z.unknown()),
      z.transform((v) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))),
    ),
    z.string().check(z.maxLength(max, message)),
  );

/** A person's full name by the portal's one rule (lib/full-name.ts, decision 060), saying what is wrong. */
export const nameField = z.pipe(
  formText(400, FULL_NAME_MESSAGES.tooLong),
  z.pipe(
    z.transform(normalizeName),
    z.string().check(z.refine((v) => isFullName(v), { error: (issue) => fullNameProblem(String(issue.input ?? '')) ?? M.nome })),
  ),
);
/** 'E-mail obrigatório' when empty, 'E-mail inválido' when filled with something else (lib/email-field.ts). */
export const emailField = z.pipe(formText(254, EMAIL_MESSAGES.invalid), z.pipe(z.transform(normalizeEmail), z.string().check(emailRule())));
/** Typed with or without its mask; the server sees the 11 digits. */
export const cpfField = z.pipe(
  formText(20, M.cpf),
  z.pipe(z.transform(digitsOnly), z.string().check(z.refine((v) => v.length === 11 && isValidCpf(v), M.cpf))),
);
/** SPEC §5's phone '(DD) NNNNN-NNNN', a mobile one: 11 digits, the number starting with 9. Stored as digits. */
export const mobileField = z.pipe(
  formText(20, M.celular),
  z.pipe(
    z.transform(digitsOnly),
    z.string().check(
      z.refine((v) => {
        const phone = parsePhone(v);
        return phone !== null && phone.numero.length === 9 && phone.numero.startsWith('9');
      }, M.celular),
    ),
  ),
);
export const formStatusField = z.pipe(
  formText(20, M.status),
  z.pipe(
    z.transform((v: string) => v.trim().toLowerCase()),
    z.enum(FORM_STATUSES, { error: M.status }),
  ),
);
const profileField = z.pipe(
  formText(20, M.perfil),
  z.pipe(
    z.transform((v: string) => v.trim().toUpperCase()),
    z.enum(PROFILES, { error: M.perfil }),
  ),
);
/** A form's repeated field (checkboxes, a multiple select) as a list; one value or none is a list too. */
export const list = <T extends core.$ZodType>(item: T, max: number, message: string) =>
  z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v])),
    z.array(item).check(z.maxLength(max, message)),
  );
const cnpjText = z.pipe(
  z.pipe(
    formText(20, M.empresa),
    z.transform((v: string) => v.replace(/[./\-\s]/g, '').toUpperCase()),
  ),
  z.string().check(z.regex(/^[0-9A-Z]{12}\d{2}$/, M.empresa)),
);
const operationText = z.pipe(formText(60, M.operacoes), z.string().check(z.regex(/^[A-Z_]{3,60}$/, M.operacoes)));
const groupText = z.pipe(
  z.pipe(
    formText(60, M.grupos),
    z.transform((v: string) => v.trim()),
  ),
  z.string().check(z.minLength(1, M.grupos)),
);
const optionalId = (message: string) =>
  z.pipe(
    z.pipe(
      formText(12, message),
      z.transform((v: string) => v.trim()),
    ),
    z.string().check(z.regex(/^$|^[1-9]\d{0,8}$/, message)),
  );

/** The legacy form (/cadastrar-usuario, /editar-usuario/{id}) and its API body. */
export const legacyUserSchema = z.object({
  nome: nameField,
  email: emailField,
  cpf: cpfField,
  /** The company's CNPJ; blank: none (the admin group only). */
  empresa: z.pipe(
    z.pipe(
      formText(20, M.empresa),
      z.transform((v: string) => v.replace(/[./\-\s]/g, '').toUpperCase()),
    ),
    z.string().check(z.regex(/^$|^[0-9A-Z]{12}\d{2}$/, M.empresa)),
  ),
  /** A legacy user without a group could do nothing but sign in (issue 27): one at least. */
  grupos: z.pipe(list(groupText, 20, M.grupos), z.array(z.string()).check(z.minLength(1, M.gruposObrigatorio))),
  status: formStatusField,
});
export type LegacyUserInput = z.output<typeof legacyUserSchema>;

/** v2 step 1, dados pessoais. */
export const personalDataSchema = z.object({
  cpf: cpfField,
  nome: nameField,
  email: emailField,
  celular: mobileField,
  perfil: profileField,
});
export type PersonalData = z.output<typeof personalDataSchema>;

/** v2 step 2, vincular usuário: companies (CNPJs), the point of sale (id, optional) and operations. */
export const linkSchema = z.object({
  empresas: list(cnpjText, 50, M.empresa),
  pontoVenda: optionalId(M.pontoVenda),
  /** A permission group of one of the companies (id, optional): its operations come with it. */
  grupoPermissao: z.optional(optionalId(M.grupoPermissao)),
  operacoes: list(operationText, 60, M.operacoes),
});
export type LinkData = z.output<typeof linkSchema>;

/** The v2 API body: both steps at once, and the status. */
export const v2UserSchema = z.object({
  ...personalDataSchema.shape,
  ...linkSchema.shape,
  status: z.optional(formStatusField),
});
export type V2UserInput = z.output<typeof v2UserSchema>;

export const statusChangeSchema = z.object({ status: formStatusField });

/** The field errors of a failed parse, keyed by the form's field names. */
export function formErrors(issues: readonly core.$ZodIssue[]): FieldErrors {
  return messagesByField(issues, (issue) => String(issue.path[0] ?? 'form'));
}

/** A form's values: one text per field, a list for the fields that hold several (what `FormData` holds). */
export type FormValues = Record<string, string | string[]>;

/** A form's values as a record of strings and lists, for schemas and re-rendering. */
export function formValues(form: FormData, lists: readonly string[] = []): FormValues {
  const values: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key).filter((v): v is string => typeof v === 'string');
    values[key] = lists.includes(key) ? all : (all[0] ?? '');
  }
  for (const key of lists) values[key] ??= [];
  return values;
}

/** `id` is one of the profiles whose users must belong to a company. */
export const needsCompany = (profile: Profile) => profile !== 'ADMIN';

// ─── The v2 registration steps ───────────────────────────────────────────────────────────────────

export const USER_STEPS = [
  { id: 'dados-pessoais', label: 'Dados pessoais' },
  { id: 'vincular-usuario', label: 'Vincular usuário' },
  { id: 'finalizacao', label: 'Finalização' },
] as const;
export type UserStep = (typeof USER_STEPS)[number]['id'];
export const USER_ACTIONS = ['novo', 'editar'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export const V2_USER_PAGES = {
  consulta: '/v2/usuario/cadastro/consulta',
  base: '/v2/usuario/cadastro',
} as const;
export const LEGACY_USER_PAGES = { consulta: '/consulta-usuarios', novo: '/cadastrar-usuario', editar: '/editar-usuario' } as const;

/** Where an administrator resets a managed user's second factor (issue 32), in each generation. */
export const secondFactorResetPath = (generation: 'v1' | 'v2', id: number) =>
  generation === 'v1' ? `${LEGACY_USER_PAGES.editar}/${id}/segundo-fator` : `/v2/usuario/segundo-fator/${id}`;

/** A step's address: the first step without a CPF starts a new registration. */
export function userStepPath(step: UserStep, cpf?: string, action: UserAction = 'novo'): string {
  if (step === 'finalizacao') return `${V2_USER_PAGES.base}/finalizacao${cpf ? `?cpf=${cpf}&acao=${action}` : ''}`;
  return cpf ? `${V2_USER_PAGES.base}/${step}/${cpf}/${action}` : `${V2_USER_PAGES.base}/${step}`;
}

/** The furthest step a draft may open: the first one it lacks. */
export function pendingUserStep(draft: { dados?: unknown; vinculo?: unknown } | undefined): UserStep {
  if (!draft?.dados) return 'dados-pessoais';
  if (!draft.vinculo) return 'vincular-usuario';
  return 'finalizacao';
}

/** Is `step` reachable with this draft (not ahead of what it holds)? */
export const stepReachable = (step: UserStep, draft: { dados?: unknown; vinculo?: unknown } | undefined) =>
  USER_STEPS.findIndex((s) => s.id === step) <= USER_STEPS.findIndex((s) => s.id === pendingUserStep(draft));

/** The list's query: filters of SPEC §3 and the 1-based page of the address (`?pagina=N`). */
export const USER_FILTER_FIELDS = ['email', 'nome', 'empresa', 'status'] as const;
export const USER_PAGE_SIZE = 4;
/** The page sizes the lists offer (issue 32): SPEC's 4 stays the default. */
export const USER_PAGE_SIZES = [4, 10, 25, 50, 100] as const;
const filterText = (max: number, message: string) =>
  z.pipe(
    z.pipe(
      formText(max, message),
      z.transform((v: string) => v.trim()),
    ),
    z.string(),
  );
export const userListQuery = z.object({
  email: filterText(254, 'E-mail muito longo.'),
  nome: filterText(120, 'Nome muito longo.'),
  empresa: filterText(120, 'Empresa muito longa.'),
  status: z.pipe(
    z.pipe(
      formText(20, 'Situação inválida.'),
      z.transform((v: string) => v.trim().toUpperCase()),
    ),
    z.string().check(z.refine((v) => v === '' || (USER_STATUSES as readonly string[]).includes(v), 'Situação inválida.')),
  ),
  pagina: z.pipe(
    z.pipe(
      formText(7, 'Página inválida.'),
      z.transform((v: string) => v.trim() || '1'),
    ),
    z.pipe(z.string().check(z.regex(/^[1-9]\d{0,5}$/, 'Página inválida.')), z.transform(Number)),
  ),
  /** Rows per page, one of USER_PAGE_SIZES (blank: SPEC's 4). */
  tamanho: z.pipe(
    z.pipe(
      formText(4, 'Tamanho de página inválido.'),
      z.transform((v: string) => v.trim() || String(USER_PAGE_SIZE)),
    ),
    z.pipe(
      z.string().check(z.refine((v) => (USER_PAGE_SIZES as readonly number[]).includes(Number(v)), 'Tamanho de página inválido.')),
      z.transform(Number),
    ),
  ),
});
export type UserListQuery = z.output<typeof userListQuery>;

/** A list's address for these filters and page (blank filters and page 1 are left out). */
export function userListHref(base: string, filters: Partial<Record<string, string>>, page = 1): string {
  const params = new URLSearchParams();
  for (const field of USER_FILTER_FIELDS) {
    const value = filters[field]?.trim();
    if (value) params.set(field, value);
  }
  const size = filters.tamanho?.trim();
  if (size && size !== String(USER_PAGE_SIZE)) params.set('tamanho', size);
  if (page > 1) params.set('pagina', String(page));
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

export { isV1Admin };
