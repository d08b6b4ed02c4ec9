import { adminContext, asFieldErrors, readForm, type Routed } from '../controller.server';
import { companyOptions, legacyGroups, managedUser, type CompanyOption, type UserRecord } from '../../server/services/network/user-admin';
import { createLegacyUser, updateLegacyUser } from '../../server/services/network/user-admin-legacy';
import {
  formErrors,
  formStatusOf,
  formValues,
  type FormValues,
  grantableGroups,
  LEGACY_USER_PAGES,
  legacyUserSchema,
  mayChangeUsers,
  type FieldErrors,
  type LegacyGroup,
  type V1Actor,
} from '../../lib/user-admin';
import type { PortalSession } from '../../lib/session';
import { withNotice } from './users-list.server';
import * as z from 'zod/mini';
import { endsWithoutGrant, GRANT_END_MESSAGES, groupEndField, grantEndDay, readGrantEnds } from '../../lib/grant-ends';
import { brasiliaDay } from '../../lib/format';
import { now } from '../../server/clock';
import { groupEndsOf } from '../../server/services/network/grant-ends';

/*
 * The legacy user form (issue 16, decision 046): /cadastrar-usuario and /editar-usuario/{id}, one
 * page with name, e-mail, CPF, company, groups and status; a change returns to the list with its notice.
 */

export interface LegacyFormProps {
  mode: 'novo' | 'editar';
  action: string;
  values: FormValues;
  errors?: FieldErrors;
  companies: CompanyOption[];
  groups: LegacyGroup[];
  /** Oneself: the status is not theirs to change. */
  self: boolean;
  pending: boolean;
  /** Each group's "válido até" day (YYYY-MM-DD) as the form shows it (decision 071); absent: no end. */
  ends: Record<string, string>;
  /** Brasília's today (YYYY-MM-DD): the first day a "válido até" may name (the inputs' `min`). */
  today: string;
}

const LEGACY_LISTS = ['grupos'];

function legacyValuesOf(user: UserRecord): FormValues {
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
    ends: Object.fromEntries(
      [...(target ? await groupEndsOf(db, target.id) : new Map<string, Date>())].map(([group, endsAt]) => [group, grantEndDay(endsAt)]),
    ),
    today: brasiliaDay(now()),
  };
  if (request.method !== 'POST') {
    const values = target ? legacyValuesOf(target) : { status: 'ativo', grupos: [] };
    return { kind: 'page', status: 200, props: { ...props, values } };
  }
  const form = await readForm(request);
  const values = formValues(form, LEGACY_LISTS);
  // Each checked group's end, on the edit form only (a new user's groups start without one).
  const checkedGroups = target && Array.isArray(values.grupos) ? values.grupos : [];
  const { ends: groupEnds, days, errors: endErrors } = readGrantEnds(form, checkedGroups, now(), groupEndField);
  // A day beside a group left unchecked is refused, not dropped (issue 42).
  const stray = target
    ? endsWithoutGrant(
        form,
        groups.map((g) => g.nome),
        checkedGroups,
        GRANT_END_MESSAGES.uncheckedGroup,
        groupEndField,
      )
    : { days: {}, errors: [] };
  Object.assign(props.ends, days, stray.days);
  const refused = [...endErrors, ...stray.errors];
  if (refused.length > 0) return { kind: 'page', status: 400, props: { ...props, values, errors: { grupos: refused } } };
  if (props.self && target) values.status = formStatusOf(target.status);
  const parsed = z.safeParse(legacyUserSchema, values);
  if (!parsed.success) return { kind: 'page', status: 400, props: { ...props, values, errors: formErrors(parsed.error.issues) } };
  try {
    if (target) await updateLegacyUser(db, actor, target.id, parsed.data, ip, groupEnds);
    else await createLegacyUser(db, actor, parsed.data, ip);
  } catch (error) {
    const failed = asFieldErrors(error);
    if (!failed) throw error;
    return { kind: 'page', status: failed.status, props: { ...props, values, errors: failed.errors } };
  }
  return { kind: 'redirect', to: withNotice(LEGACY_USER_PAGES.consulta, target ? 'alterado' : 'cadastrado') };
}
