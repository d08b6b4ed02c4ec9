import type { DB } from '../../server/db';
import { adminContext, asFieldErrors, readForm, type Routed } from '../controller.server';
import { permissionGroupsOfCompanies } from '../../server/services/network/access-groups';
import { companyOptions, managedUser, type CompanyOption, type UserRecord } from '../../server/services/network/user-admin';
import { createV2User, updateV2User, v2ChangeProblems } from '../../server/services/network/user-admin-v2';
import { setPermissionGroupEnd } from '../../server/services/network/grant-ends';
import { now } from '../../server/clock';
import { brasiliaDay } from '../../lib/format';
import { grantEndDay, readGrantEnd } from '../../lib/grant-ends';
import {
  cpfTaken,
  draftOfUser,
  emailTaken,
  moveDraft,
  readDraft,
  saveDraft,
  type UserDraft,
} from '../../server/services/network/user-admin-drafts';
import {
  formErrors,
  formValues,
  type FormValues,
  grantableProfiles,
  heldOperations,
  linkSchema,
  pendingUserStep,
  personalDataSchema,
  stepReachable,
  USER_ACTIONS,
  USER_ADMIN_MESSAGES,
  userStepPath,
  V2_USER_PAGES,
  type FieldErrors,
  type UserAction,
  type UserStep,
  type V2Actor,
} from '../../lib/user-admin';
import type { Profile } from '../../lib/permissions';
import type { PortalSession } from '../../lib/session';
import { digitsOnly } from '../../lib/validators';
import { withNotice } from './users-list.server';
import * as z from 'zod/mini';

/*
 * The v2 user steps (issue 16, decision 046): /v2/usuario/cadastro/{passo}[/{cpf}/{acao}] — personal
 * data, the link to companies, point of sale and permissions, and the finish — each step's answer
 * kept in the actor's draft until the last one writes the user.
 */

export interface StepProps {
  step: UserStep;
  action: UserAction;
  /** The CPF the steps' addresses carry (the draft's, or the edited user's). */
  cpf?: string;
  /** Where this step's form posts. */
  formAction: string;
  values: FormValues;
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
  /** Editing with a permission group: its "válido até" day as the form shows it (decision 071); '' for none. */
  groupEnd?: string;
  /** Brasília's today (YYYY-MM-DD): the first day a "válido até" may name (the input's `min`). */
  today: string;
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
    today: brasiliaDay(now()),
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
  if (step === 'finalizacao' && target) {
    const current = await db.selectFrom('users').select('permission_group_ends_at').where('id', '=', target.id).executeTakeFirst();
    // The same group keeps its end; another starts without one (user-admin-v2.ts).
    const sameGroup = String(target.permissionGroupId ?? '') === (draft.vinculo?.grupoPermissao ?? '');
    props.groupEnd = sameGroup && current?.permission_group_ends_at ? grantEndDay(current.permission_group_ends_at) : '';
  }
  if (request.method !== 'POST') return { kind: 'page', status: 200, props };

  const form = await readForm(request);
  if (step === 'dados-pessoais') return personalDataPost(db, actor, props, form, target, saved, cpf);
  if (step === 'vincular-usuario') return linkPost(db, actor, props, form, target, cpf!, action!);
  return finishPost(db, actor, props, target, action!, ip, form);
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
  form: FormData,
): Promise<Routed<StepProps>> {
  const change = { dados: props.draft.dados!, vinculo: props.draft.vinculo! };
  // With a group: its "válido até" (decision 071), checked before anything is written.
  const withGroup = change.vinculo.grupoPermissao !== '';
  const end = withGroup ? readGrantEnd(form.get('grupoPermissaoAte'), now()) : ({ ok: true, endsAt: null } as const);
  if (!end.ok) {
    const given = form.get('grupoPermissaoAte');
    return {
      kind: 'page',
      status: 400,
      props: { ...props, groupEnd: typeof given === 'string' ? given.slice(0, 10) : '', errors: { grupoPermissao: [end.message] } },
    };
  }
  try {
    const userId = target ? target.id : (await createV2User(db, actor, change, ip)).id;
    if (target) await updateV2User(db, actor, target.id, change, ip);
    const before = props.groupEnd ?? '';
    const after = end.endsAt ? grantEndDay(end.endsAt) : '';
    if (withGroup && before !== after) await setPermissionGroupEnd(db, actor, userId, end.endsAt, ip);
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
