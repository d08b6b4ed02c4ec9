import { adminContext, asFieldErrors, readForm, type Routed } from '../controller.server';
import { listUsers, manageableAmong, type UserRecord } from '../../server/services/network/user-admin';
import { setUserStatus } from '../../server/services/network/user-admin-writing';
import {
  formErrors,
  formValues,
  LEGACY_USER_PAGES,
  mayChangeUsers,
  statusChangeSchema,
  USER_PAGE_SIZE,
  userListHref,
  userListQuery,
  V2_USER_PAGES,
  type Actor,
  type FieldErrors,
} from '../../lib/user-admin';
import { viewerOf, type PortalSession } from '../../lib/session';
import { pageAccess } from '../../lib/route-guards';
import { config } from '../../server/config';
import { pageWithin, withReadablePage } from '../../lib/list-query';
import * as z from 'zod/mini';
import { bulkGroupOptions, type GroupOption } from '../../server/services/network/user-bulk';
import { BULK_PATHS, bulkActionLabel, LIST_ACTION_CODES } from '../../lib/user-bulk';
import type { DB } from '../../server/db';

/** The bulk form's choices: the lists' actions, and the groups this actor may give. */
async function bulkChoices(db: DB, actor: Actor, generation: 'v1' | 'v2'): Promise<UserListProps['bulk']> {
  if (!mayChangeUsers(actor)) return undefined;
  return {
    actions: LIST_ACTION_CODES.map((value) => ({ value, label: bulkActionLabel(value, generation) })),
    groups: await bulkGroupOptions(db, actor),
  };
}

const exportsOf = (generation: 'v1' | 'v2', values: Record<string, string>) => ({
  csv: userListHref(`${BULK_PATHS[generation].exportar}.csv`, { ...values, tamanho: '' }),
  xlsx: userListHref(`${BULK_PATHS[generation].exportar}.xlsx`, { ...values, tamanho: '' }),
});

/*
 * What the user administration pages need (issue 16, decision 046), both generations: plain GET
 * and POST forms that work without JavaScript. A POST that succeeds redirects (303) to a page that
 * says so; one that fails renders the same form again with its values and pt-BR messages, with
 * 400 (or 409 for a duplicate or the last administrator) — never a 500 for bad input.
 *
 * This file holds the list (both generations) and the notices it shows after a change; the legacy
 * form is in users-legacy.server.ts, the v2 steps in users-v2.server.ts.
 */

const NOTICES = {
  cadastrado: 'Usuário cadastrado. Enviamos o e-mail de primeiro acesso com o código de validação.',
  alterado: 'Usuário alterado.',
  situacao: 'Situação do usuário alterada. Se ele estava conectado, a sessão foi encerrada.',
  'segundo-fator':
    'Verificação em duas etapas redefinida. As sessões do usuário foram encerradas; no próximo acesso ele a configura de novo.',
} as const;
export type Notice = keyof typeof NOTICES;
const noticeOf = (value: string | null) => (value && value in NOTICES ? NOTICES[value as Notice] : undefined);

/** A link to the list that says what a change did (the forms' redirect after a success). */
export const withNotice = (href: string, notice: Notice) => `${href}${href.includes('?') ? '&' : '?'}aviso=${notice}`;

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
  /** Rows per page (issue 32): one of USER_PAGE_SIZES. */
  pageSize: number;
  /** The bulk form (issue 32): its actions and groups, for whoever may change users. */
  bulk?: { actions: { value: string; label: string }[]; groups: GroupOption[] };
  /** The list's filters as CSV and XLSX. */
  exports: { csv: string; xlsx: string };
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
    { href: '/revisao-acessos', label: 'Revisão de acessos', testId: 'revisao-acessos', changes: true },
    { href: '/grupo-acesso', label: 'Grupos de acesso', testId: 'grupos', changes: false },
    { href: '/consulta-usuarios/convites', label: 'Convites pendentes', testId: 'convites', changes: false },
  ],
  v2: [
    { href: '/v2/usuario/importacao/upload', label: 'Importar usuários', testId: 'importar-usuarios', changes: true },
    { href: '/v2/usuario/revisao-acessos', label: 'Revisão de acessos', testId: 'revisao-acessos', changes: true },
    { href: '/v2/usuario/permissoes/consulta', label: 'Grupos de permissões', testId: 'grupos', changes: false },
    { href: '/v2/usuario/convites', label: 'Convites pendentes', testId: 'convites', changes: false },
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
  const raw = Object.fromEntries(['email', 'nome', 'empresa', 'status', 'pagina', 'tamanho'].map((k) => [k, params.get(k) ?? '']));
  const values = { email: raw.email!, nome: raw.nome!, empresa: raw.empresa!, status: raw.status!.toUpperCase(), tamanho: raw.tamanho! };
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
      pageSize: USER_PAGE_SIZE,
      exports: exportsOf(generation, values),
    };
    return {
      kind: 'page',
      status: 400,
      props: { ...base, errors: formErrors(parsed.error.issues), rows: [], page: 1, totalPages: 0, totalElements: 0 },
    };
  }
  const { email, nome, empresa, status: situacao, tamanho } = parsed.data;
  // A page past the last shows the last (lib/list-query.ts); the row actions post to, and return to, the page shown.
  const result = await pageWithin(asked, (p) => listUsers(db, actor, { email, nome, empresa, status: situacao }, p - 1, tamanho));
  const { page } = result;
  const base = {
    generation,
    values,
    canChange: mayChangeUsers(actor),
    self: userListHref(LIST_PATH[generation], values, page),
    actorId: actor.userId,
    links: listLinks(generation, session, actor),
    pageSize: tamanho,
    bulk: await bulkChoices(db, actor, generation),
    exports: exportsOf(generation, values),
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
