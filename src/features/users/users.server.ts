import type { DB } from '../../server/db';
import { adminContext, asFieldErrors, readForm, type Routed } from '../controller.server';
import { permissionGroupsOfCompanies } from '../../server/services/network/access-groups';
import {
  companyOptions,
  cpfTaken,
  createLegacyUser,
  createV2User,
  draftOfUser,
  emailTaken,
  legacyGroups,
  listUsers,
  managedUser,
  manageableAmong,
  moveDraft,
  readDraft,
  saveDraft,
  setUserStatus,
  updateLegacyUser,
  updateV2User,
  v2ChangeProblems,
  type CompanyOption,
  type UserDraft,
  type UserRecord,
} from '../../server/services/network/user-admin';
import {
  formErrors,
  formStatusOf,
  formValues,
  grantableGroups,
  grantableProfiles,
  heldOperations,
  LEGACY_USER_PAGES,
  legacyUserSchema,
  linkSchema,
  mayChangeUsers,
  pendingUserStep,
  personalDataSchema,
  statusChangeSchema,
  stepReachable,
  USER_ACTIONS,
  USER_ADMIN_MESSAGES,
  userListHref,
  userListQuery,
  userStepPath,
  V2_USER_PAGES,
  type Actor,
  type FieldErrors,
  type LegacyGroup,
  type UserAction,
  type UserStep,
  type V1Actor,
  type V2Actor,
} from '../../lib/user-admin';
import type { Profile } from '../../lib/permissions';
import { viewerOf, type PortalSession } from '../../lib/session';
import { pageAccess } from '../../lib/route-guards';
import { config } from '../../server/config';
import { digitsOnly } from '../../lib/validators';
import { pageWithin, withReadablePage } from '../../lib/list-query';
import * as z from 'zod/mini';

/*
 * What the user administration pages need (issue 16, decision 046), both generations: plain GET
 * and POST forms that work without JavaScript. A POST that succeeds redirects (303) to a page that
 * says so; one that fails renders the same form again with its values and pt-BR messages, with
 * 400 (or 409 for a duplicate or the last administrator) — never a 500 for bad input.
 */

type Values = Record<string, string | string[]>;

const NOTICES = {
  cadastrado: 'Usuário cadastrado. Enviamos o e-mail de primeiro acesso com o código de validação.',
  alterado: 'Usuário alterado.',
  situacao: 'Situação do usuário alterada. Se ele estava conectado, a sessão foi encerrada.',
} as const;
export type Notice = keyof typeof NOTICES;
const noticeOf = (value: string | null) => (value && value in NOTICES ? NOTICES[value as Notice] : undefined);

const withNotice = (href: string, notice: Notice) => `${href}${href.includes('?') ? '&' : '?'}aviso=${notice}`;

// ─── The list (both generations) ─────────────────────────────────────────────────────────────────

export interface UserRow {
  id: number;
  nome: string;
  email: string;
  cpf: string | null;
  status: string;
  perfil: string | null;
  empresa: string | null;
  /** The viewer may change this user: the row offers editing and the status actions. */
  manageable: boolean;
  /** The whole CPF, for the v2 edit step's address: only on a row the viewer may change. */
  cpfDigits?: string;
}

const manageableRow = (user: UserRecord | undefined) => ({ manageable: Boolean(user), cpfDigits: user?.cpf ?? undefined });

export interface UserListProps {
  generation: 'v1' | 'v2';
  values: Record<string, string>;
  errors?: FieldErrors;
  rows: UserRow[];
  page: number;
  totalPages: number;
  totalElements: number;
  notice?: string;
  canChange: boolean;
  /** The list's own address (filters and page), where the row actions post and return. */
  self: string;
  actorId: number;
  /** The pages of the same administration the viewer may open from here (issue 27): import, groups. */
  links: { href: string; label: string; testId: string }[];
}

const LIST_PATH = { v1: LEGACY_USER_PAGES.consulta, v2: V2_USER_PAGES.consulta } as const;

/**
 * What the users list links to (issue 27: the import was reachable from nowhere in v2), each shown to
 * whoever the page's own guard lets in (route-guards.ts, in this environment) — the import also
 * needs the right to change users, as its page does.
 */
const LIST_LINKS = {
  v1: [
    { href: '/importar-usuarios', label: 'Importar usuários', testId: 'importar-usuarios', changes: true },
    { href: '/grupo-acesso', label: 'Grupos de acesso', testId: 'grupos', changes: false },
  ],
  v2: [
    { href: '/v2/usuario/importacao/upload', label: 'Importar usuários', testId: 'importar-usuarios', changes: true },
    { href: '/v2/usuario/permissoes/consulta', label: 'Grupos de permissões', testId: 'grupos', changes: false },
  ],
} as const;

function listLinks(generation: 'v1' | 'v2', session: PortalSession, actor: Actor): UserListProps['links'] {
  const viewer = viewerOf(session, generation);
  if (!viewer) return [];
  return LIST_LINKS[generation]
    .filter((link) => (!link.changes || mayChangeUsers(actor)) && pageAccess(link.href, viewer, config().PORTAL_ENV) === 'allowed')
    .map(({ href, label, testId }) => ({ href, label, testId }));
}
const statusForm = z.object({ id: z.string().check(z.regex(/^[1-9]\d{0,8}$/)), status: statusChangeSchema.shape.status });

/** /consulta-usuarios and /v2/usuario/cadastro/consulta: GET filters and page; POST a row's status. */
export async function userListPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<UserListProps>> {
  const { db, actor } = await adminContext(session, generation);
  // A page that is no number shows the first (lib/list-query.ts).
  const params = withReadablePage(url.searchParams, 'pagina');
  const raw = Object.fromEntries(['email', 'nome', 'empresa', 'status', 'pagina'].map((k) => [k, params.get(k) ?? '']));
  const values = { email: raw.email!, nome: raw.nome!, empresa: raw.empresa!, status: raw.status!.toUpperCase() };
  const parsed = z.safeParse(userListQuery, raw);
  const asked = parsed.success ? parsed.data.pagina : 1;
  let formError: FieldErrors | undefined;
  let status = 200;
  if (request.method === 'POST') {
    const form = statusForm.safeParse(formValues(await readForm(request)));
    if (!form.success) {
      status = 400;
      formError = { form: ['Ação inválida: escolha ativar, desativar ou bloquear.'] };
    } else {
      try {
        await setUserStatus(db, actor, Number(form.data.id), form.data.status, ip);
        return { kind: 'redirect', to: withNotice(userListHref(LIST_PATH[generation], values, asked), 'situacao') };
      } catch (error) {
        const failed = asFieldErrors(error);
        if (!failed) throw error;
        status = failed.status;
        formError = { form: Object.values(failed.errors).flat() };
      }
    }
  }
  if (!parsed.success) {
    const base = {
      generation,
      values,
      canChange: mayChangeUsers(actor),
      self: userListHref(LIST_PATH[generation], values),
      actorId: actor.userId,
      links: listLinks(generation, session, actor),
    };
    return {
      kind: 'page',
      status: 400,
      props: { ...base, errors: formErrors(parsed.error.issues), rows: [], page: 1, totalPages: 0, totalElements: 0 },
    };
  }
  const { email, nome, empresa, status: situacao } = parsed.data;
  // A page past the last shows the last (lib/list-query.ts); the row actions post to, and return to, the page shown.
  const result = await pageWithin(asked, (p) => listUsers(db, actor, { email, nome, empresa, status: situacao }, p - 1));
  const { page } = result;
  const base = {
    generation,
    values,
    canChange: mayChangeUsers(actor),
    self: userListHref(LIST_PATH[generation], values, page),
    actorId: actor.userId,
    links: listLinks(generation, session, actor),
  };
  const manageable = await manageableAmong(
    db,
    actor,
    result.content.map((u) => u.id),
  );
  return {
    kind: 'page',
    status,
    props: {
      ...base,
      errors: formError,
      rows: result.content.map((u) => ({
        id: u.id,
        nome: u.nome,
        email: u.email,
        cpf: u.cpf,
        status: u.status,
        perfil: u.perfil,
        empresa: u.empresa,
        ...manageableRow(manageable.find((m) => m.id === u.id)),
      })),
      page,
      totalPages: result.totalPages,
      totalElements: result.totalElements,
      notice: noticeOf(url.searchParams.get('aviso')),
    },
  };
}

// ─── Legacy form ─────────────────────────────────────────────────────────────────────────────────

export interface LegacyFormProps {
  mode: 'novo' | 'editar';
  action: string;
  values: Values;
  errors?: FieldErrors;
  companies: CompanyOption[];
  groups: LegacyGroup[];
  /** Oneself: the status is not theirs to change. */
  self: boolean;
  pending: boolean;
}

const LEGACY_LISTS = ['grupos'];

function legacyValuesOf(user: UserRecord): Values {
  const company = user.empresas.find((c) => c.id === user.companyId) ?? user.empresas[0];
  return {
    nome: user.nome,
    email: user.email,
    cpf: user.cpf ?? '',
    empresa: company?.cnpj ?? '',
    grupos: [...user.groups],
    status: formStatusOf(user.status),
  };
}

/** /cadastrar-usuario and /editar-usuario/{id}. */
export async function legacyFormPage(
  session: PortalSession,
  idParam: string | undefined,
  request: Request,
  ip: string,
): Promise<Routed<LegacyFormProps>> {
  const { db, actor: anyActor } = await adminContext(session, 'v1');
  const actor = anyActor as V1Actor;
  // Changing needs USUARIOS EDIT (the guard asked only VIEW, the list's): a viewer without it gets the 404 of a user not theirs.
  if (!mayChangeUsers(actor)) return { kind: 'not-found' };
  let target: UserRecord | undefined;
  if (idParam !== undefined) {
    target = /^[1-9]\d{0,8}$/.test(idParam) ? await managedUser(db, actor, { id: Number(idParam) }) : undefined;
    if (!target) return { kind: 'not-found' };
  }
  const allGroups = await legacyGroups(db);
  const offered = grantableGroups(actor, allGroups);
  // A group the user has already stays on the form (checked), even when the actor could not give it.
  const groups = allGroups.filter((g) => offered.includes(g) || target?.groups.includes(g.nome));
  const props = {
    mode: target ? ('editar' as const) : ('novo' as const),
    action: target ? `${LEGACY_USER_PAGES.editar}/${target.id}` : LEGACY_USER_PAGES.novo,
    companies: await companyOptions(db, actor),
    groups,
    self: target?.id === actor.userId,
    pending: target?.status === 'PENDENTE',
  };
  if (request.method !== 'POST') {
    const values = target ? legacyValuesOf(target) : { status: 'ativo', grupos: [] };
    return { kind: 'page', status: 200, props: { ...props, values } };
  }
  const values = formValues(await readForm(request), LEGACY_LISTS);
  if (props.self && target) values.status = formStatusOf(target.status);
  const parsed = z.safeParse(legacyUserSchema, values);
  if (!parsed.success) return { kind: 'page', status: 400, props: { ...props, values, errors: formErrors(parsed.error.issues) } };
  try {
    if (target) await updateLegacyUser(db, actor, target.id, parsed.data, ip);
    else await createLegacyUser(db, actor, parsed.data, ip);
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, values, errors: failed.errors } };
  }
  return { kind: 'redirect', to: withNotice(LEGACY_USER_PAGES.consulta, target ? 'alterado' : 'cadastrado') };
}

// ─── v2 steps ────────────────────────────────────────────────────────────────────────────────────

export interface StepProps {
  step: UserStep;
  action: UserAction;
  /** The CPF the steps' addresses carry (the draft's, or the edited user's). */
  cpf?: string;
  /** Where this step's form posts. */
  formAction: string;
  values: Values;
  errors?: FieldErrors;
  profiles: Profile[];
  companies: CompanyOption[];
  /** The permission groups of those companies (the vincular step's choice). */
  permissionGroups: { id: number; nome: string; empresa: string; operacoes: string[] }[];
  operations: string[];
  draft: UserDraft;
  /** The stepper's links. */
  steps: { id: UserStep; label: string; href?: string }[];
  editing?: { nome: string };
}

const STEP_LABELS: Record<UserStep, string> = {
  'dados-pessoais': 'Dados pessoais',
  'vincular-usuario': 'Vincular usuário',
  finalizacao: 'Finalização',
};

function stepLinks(draft: UserDraft, cpf: string | undefined, action: UserAction) {
  return (Object.keys(STEP_LABELS) as UserStep[]).map((id) => ({
    id,
    label: STEP_LABELS[id],
    href: cpf && stepReachable(id, draft) ? userStepPath(id, cpf, action) : undefined,
  }));
}

const cpfOfPath = (value: string | undefined) => (value && /^\d{11}$/.test(value) ? value : undefined);

/**
 * Where a step's address leads: the step itself, a redirect to the first step the draft lacks
 * (typed ahead, or a draft that is gone), or the 404 of a user the actor does not manage.
 */
export async function userStepPage(
  session: PortalSession,
  step: UserStep,
  params: { cpf?: string; acao?: string },
  request: Request,
  ip: string,
): Promise<Routed<StepProps>> {
  const { db, actor: anyActor } = await adminContext(session, 'v2');
  const actor = anyActor as V2Actor;
  const hasParams = params.cpf !== undefined || params.acao !== undefined;
  const cpf = cpfOfPath(params.cpf);
  const action = USER_ACTIONS.find((a) => a === params.acao);
  if (hasParams && (!cpf || !action)) return { kind: 'not-found' };
  if (step === 'finalizacao' && !hasParams) return { kind: 'redirect', to: userStepPath('dados-pessoais') };

  // The user being edited, when editing: a CPF outside the actor's users is a 404.
  let target: UserRecord | undefined;
  if (action === 'editar') {
    target = await managedUser(db, actor, { cpf: cpf! });
    if (!target) return { kind: 'not-found' };
  }
  const saved = cpf && action ? await readDraft(db, actor, cpf, action) : undefined;
  const draft: UserDraft = target ? { ...draftOfUser(target), ...saved } : (saved ?? {});
  // A new registration's later steps need its draft; the first step without a draft starts over.
  if (action === 'novo' && !saved) return { kind: 'redirect', to: userStepPath('dados-pessoais') };
  if (step !== 'dados-pessoais' && !stepReachable(step, draft))
    return { kind: 'redirect', to: userStepPath(pendingUserStep(draft), cpf, action) };
  if (step === 'vincular-usuario' && !hasParams) return { kind: 'redirect', to: userStepPath('dados-pessoais') };

  const props: StepProps = {
    step,
    action: action ?? 'novo',
    cpf,
    formAction:
      step === 'finalizacao' ? userStepPath('finalizacao', cpf, action) : cpf ? userStepPath(step, cpf, action) : userStepPath(step),
    values: {},
    profiles: grantableProfiles(actor).concat(
      target?.profile && !grantableProfiles(actor).includes(target.profile) ? [target.profile] : [],
    ),
    companies: await companyOptions(db, actor),
    permissionGroups: [],
    operations: [...new Set([...heldOperations(actor), ...(target?.operations ?? [])])],
    draft,
    steps: stepLinks(draft, cpf, action ?? 'novo'),
    editing: target ? { nome: target.nome } : undefined,
  };
  if (target) {
    // The edited user's companies stay listed even when the actor administers only some.
    for (const c of target.empresas)
      if (!props.companies.some((o) => o.id === c.id))
        props.companies.push({ id: c.id, cnpj: c.cnpj, nome: c.nome, tipo: 'PARCEIRO', pontosVenda: [] });
  }
  props.permissionGroups = (
    await permissionGroupsOfCompanies(
      db,
      props.companies.map((c) => c.id),
    )
  ).map((g) => ({
    id: g.id,
    nome: g.nome,
    empresa: g.empresa.nome,
    operacoes: g.operacoes,
  }));
  if (step === 'dados-pessoais')
    props.values = { ...(draft.dados ?? { perfil: props.profiles.includes('PARCEIRO') ? 'PARCEIRO' : (props.profiles[0] ?? '') }) };
  if (step === 'vincular-usuario')
    props.values = { ...(draft.vinculo ?? { empresas: [], operacoes: [], pontoVenda: '', grupoPermissao: '' }) };
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };

  const form = await readForm(request);
  if (step === 'dados-pessoais') return personalDataPost(db, actor, props, form, target, saved, cpf);
  if (step === 'vincular-usuario') return linkPost(db, actor, props, form, target, cpf!, action!);
  return finishPost(db, actor, props, target, action!, ip);
}

async function personalDataPost(
  db: DB,
  actor: V2Actor,
  props: StepProps,
  form: FormData,
  target: UserRecord | undefined,
  saved: UserDraft | undefined,
  cpf: string | undefined,
): Promise<Routed<StepProps>> {
  const values = formValues(form);
  const fail = (errors: FieldErrors, status = 400): Routed<StepProps> => ({ kind: 'page', status, props: { ...props, values, errors } });
  const parsed = z.safeParse(personalDataSchema, values);
  if (!parsed.success) return fail(formErrors(parsed.error.issues));
  const dados = parsed.data;
  const errors: FieldErrors = {};
  if (dados.perfil !== target?.profile && !grantableProfiles(actor).includes(dados.perfil)) errors.perfil = [USER_ADMIN_MESSAGES.profile];
  if (await cpfTaken(db, dados.cpf, target?.id)) errors.cpf = [USER_ADMIN_MESSAGES.duplicateCpf];
  if (await emailTaken(db, dados.email, target?.id)) errors.email = [USER_ADMIN_MESSAGES.duplicateEmail];
  if (Object.keys(errors).length > 0) return fail(errors, errors.perfil ? 400 : 409);
  if (target) {
    await saveDraft(db, actor, target.cpf!, 'editar', { dados });
    return { kind: 'redirect', to: userStepPath('vincular-usuario', target.cpf!, 'editar') };
  }
  // A new registration: its draft is keyed by the CPF typed; a CPF changed carries the later steps along.
  if (cpf && saved) await moveDraft(db, actor, cpf, dados.cpf, 'novo');
  await saveDraft(db, actor, dados.cpf, 'novo', { dados });
  return { kind: 'redirect', to: userStepPath('vincular-usuario', dados.cpf, 'novo') };
}

async function linkPost(
  db: DB,
  actor: V2Actor,
  props: StepProps,
  form: FormData,
  target: UserRecord | undefined,
  cpf: string,
  action: UserAction,
): Promise<Routed<StepProps>> {
  const values = formValues(form, ['empresas', 'operacoes']);
  const fail = (errors: FieldErrors): Routed<StepProps> => ({ kind: 'page', status: 400, props: { ...props, values, errors } });
  const parsed = z.safeParse(linkSchema, values);
  if (!parsed.success) return fail(formErrors(parsed.error.issues));
  const dados = props.draft.dados!;
  const problems = await v2ChangeProblems(db, actor, { dados, vinculo: parsed.data }, target);
  // Only this step's fields: the first step's were checked there.
  const mine = Object.fromEntries(
    Object.entries(problems).filter(([field]) => ['empresas', 'pontoVenda', 'grupoPermissao', 'operacoes', 'perfil'].includes(field)),
  );
  if (Object.keys(mine).length > 0) return fail(mine);
  await saveDraft(db, actor, cpf, action, { vinculo: parsed.data });
  return { kind: 'redirect', to: userStepPath('finalizacao', cpf, action) };
}

async function finishPost(
  db: DB,
  actor: V2Actor,
  props: StepProps,
  target: UserRecord | undefined,
  action: UserAction,
  ip: string,
): Promise<Routed<StepProps>> {
  const change = { dados: props.draft.dados!, vinculo: props.draft.vinculo! };
  try {
    if (target) await updateV2User(db, actor, target.id, change, ip);
    else await createV2User(db, actor, change, ip);
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, errors: failed.errors } };
  }
  return { kind: 'redirect', to: withNotice(V2_USER_PAGES.consulta, action === 'editar' ? 'alterado' : 'cadastrado') };
}

/** The step's name of `/v2/usuario/cadastro/{passo}[/{cpf}/{acao}]`, when it is one. */
export function stepOf(passo: string | undefined): { step: UserStep; cpf?: string; acao?: string } | undefined {
  const parts = (passo ?? '').split('/').filter(Boolean);
  const step = (['dados-pessoais', 'vincular-usuario', 'finalizacao'] as const).find((s) => s === parts[0]);
  if (!step) return undefined;
  if (parts.length === 1) return { step };
  if (parts.length === 3 && step !== 'finalizacao')
    return { step, cpf: digitsOnly(parts[1]!) === parts[1] ? parts[1] : '', acao: parts[2] };
  return undefined;
}

export type { Actor };
