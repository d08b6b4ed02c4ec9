import * as z from 'zod/mini';
import { invalid } from '../../server/errors';
import { adminContext, asFieldErrors, readForm, recordIdOf, type Routed } from '../controller.server';
import { config, externalLinks } from '../../server/config';
import { listUserHistory } from '../../server/services/identity/access-log';
import { historyLens, readsSecurity, userPageFacts, type UserPageFacts } from '../../server/services/network/user-page';
import { SECOND_FACTOR_RESET_MESSAGE } from '../../server/services/network/user-admin';
import {
  endUserSessions,
  listPendingInvitations,
  USER_PAGE_ACTIONS,
  type PendingInvitation,
} from '../../server/services/network/user-invitations';
import type { AccessLogRow } from '../../lib/access-log';
import { lastPlainPage, pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { mayChangeUsers, mayListUsers, type FieldErrors } from '../../lib/user-admin';
import {
  INVITATIONS_PAGE_SIZE,
  INVITATIONS_PATH,
  USER_ACTION_NOTICES,
  USER_ACTIONS,
  USER_HISTORY_PAGE_SIZE,
  userPagePath,
  type HistoryKind,
} from '../../lib/user-page';
import { viewerOf, type PortalSession } from '../../lib/session';

/*
 * A page per user and the pending invitations (issue 32, decision 069), both generations: plain GET
 * pages and POST forms that work without JavaScript. A POST that succeeds redirects (303) to the page
 * with a notice; one refused renders the page again with the message and its 4xx. A user outside the
 * viewer's administration — another generation, a company they do not administer — is the 404 page.
 */

const actionField = z.enum(USER_ACTIONS, {
  error: 'Ação inválida: escolha reenviar ou cancelar o convite, forçar nova senha ou encerrar sessões.',
});
const recordId = (message: string) => z.string({ error: message }).check(z.regex(/^[1-9]\d{0,8}$/, message));
const pageAction = z.object({ acao: actionField, id: z.optional(recordId('Sessão inválida.')) });
const listAction = z.object({
  id: recordId('Usuário inválido.'),
  acao: z.enum(['reenviar-convite', 'cancelar-convite'], { error: 'Ação inválida: escolha reenviar ou cancelar o convite.' }),
});

/** What the page says after an action (`?aviso=`): its own, and the second-factor reset's, which lands here too (issue 42). */
const NOTICES: Readonly<Record<string, string>> = { ...USER_ACTION_NOTICES, 'segundo-fator': SECOND_FACTOR_RESET_MESSAGE };
const noticeOf = (value: string | null) => (value && Object.hasOwn(NOTICES, value) ? NOTICES[value] : undefined);

/** A history's page from the address (`entradas-pagina`, `entradas-cursor`): anything unreadable is page 1. */
function historyRequest(url: URL, kind: HistoryKind) {
  const raw = url.searchParams.get(`${kind}-pagina`) ?? '';
  const page = /^[1-9]\d{0,5}$/.test(raw) ? Math.min(Number(raw), lastPlainPage(USER_HISTORY_PAGE_SIZE)) : 1;
  return pageRequestOf(page, url.searchParams.get(`${kind}-cursor`));
}

export interface UserPageProps {
  generation: 'v1' | 'v2';
  facts: UserPageFacts;
  /** The sign-ins only to a viewer who may manage the user (decision 072); the access log as their scope reads it. */
  histories: { entradas?: KeysetPage<AccessLogRow>; registro: KeysetPage<AccessLogRow> };
  /** The page's own address (its histories' pages kept), where the actions post. */
  self: string;
  /** Where each history's page links lead (the other history's page kept). */
  hrefs: Record<HistoryKind, Record<string, string>>;
  listHref: string;
  notice?: string;
  errors?: FieldErrors;
}

/** /consulta-usuarios/{id} and /v2/usuario/{id}: GET shows the user; POST runs one of the page's actions. */
export async function userPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  idParam: string | undefined,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<UserPageProps>> {
  const id = recordIdOf(idParam);
  if (id === undefined) return { kind: 'not-found' };
  const { db, actor } = await adminContext(session, generation);
  const read = () => userPageFacts(db, actor, id, config().PORTAL_ENV, externalLinks());
  const path = userPagePath(generation, id);
  let errors: FieldErrors | undefined;
  let status = 200;
  if (request.method === 'POST') {
    // Nobody learns from a refused action whether a user they may not see exists: a bad form is
    // answered only once the user is found below, and the actions refuse a foreign user with the 404.
    const form = z.safeParse(pageAction, Object.fromEntries(await readForm(request)));
    if (!form.success) {
      status = 400;
      errors = { form: [form.error.issues[0]?.message ?? 'Ação inválida.'] };
    } else {
      try {
        const { acao, id: session } = form.data;
        if (acao === 'sessao-encerrar') {
          // Which session: the form's `id` (SessionsSection's field); without one there is nothing to end.
          if (!session) throw invalid('Sessão inválida.');
          await endUserSessions(db, actor, id, ip, Number(session));
        } else await USER_PAGE_ACTIONS[acao](db, actor, id, ip);
        return { kind: 'redirect', to: `${path}?aviso=${form.data.acao}` };
      } catch (error) {
        const failed = asFieldErrors(error);
        if (!failed) throw error;
        if (failed.status === 404) return { kind: 'not-found' };
        status = failed.status;
        errors = { form: Object.values(failed.errors).flat() };
      }
    }
  }
  const facts = await read();
  if (!facts) return { kind: 'not-found' };
  const lens = await historyLens(db, actor, viewerOf(session, generation)!, facts.manageable);
  const history = (kind: HistoryKind) => listUserHistory(db, id, kind, historyRequest(url, kind), USER_HISTORY_PAGE_SIZE, lens);
  const [entradas, registro] = await Promise.all([readsSecurity(lens) ? history('entradas') : undefined, history('registro')]);
  const kept = (kind: HistoryKind) =>
    Object.fromEntries(
      [`${kind}-pagina`, `${kind}-cursor`].flatMap((key) => (url.searchParams.get(key) ? [[key, url.searchParams.get(key)!]] : [])),
    );
  return {
    kind: 'page',
    status,
    props: {
      generation,
      facts,
      histories: { entradas, registro },
      self: path,
      hrefs: { entradas: kept('registro'), registro: kept('entradas') },
      listHref: generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario/cadastro/consulta',
      notice: noticeOf(url.searchParams.get('aviso')),
      errors,
    },
  };
}

export interface InvitationsPageProps {
  generation: 'v1' | 'v2';
  result: KeysetPage<PendingInvitation>;
  canChange: boolean;
  self: string;
  listHref: string;
  notice?: string;
  errors?: FieldErrors;
}

/** /consulta-usuarios/convites and /v2/usuario/convites: the pending first accesses, oldest first; POST resends or cancels one. */
export async function invitationsPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<InvitationsPageProps>> {
  const { db, actor } = await adminContext(session, generation);
  // The route's guard lets in the users list's viewers; this asks the list's own rule again.
  if (!mayListUsers(actor)) return { kind: 'not-found' };
  const raw = url.searchParams.get('pagina') ?? '';
  const page = /^[1-9]\d{0,5}$/.test(raw) ? Math.min(Number(raw), lastPlainPage(INVITATIONS_PAGE_SIZE)) : 1;
  const pageRequest = pageRequestOf(page, url.searchParams.get('cursor'));
  const self = `${INVITATIONS_PATH[generation]}${page > 1 ? `?${new URLSearchParams({ pagina: String(page), ...(url.searchParams.get('cursor') ? { cursor: url.searchParams.get('cursor')! } : {}) })}` : ''}`;
  let errors: FieldErrors | undefined;
  let status = 200;
  if (request.method === 'POST') {
    const form = z.safeParse(listAction, Object.fromEntries(await readForm(request)));
    if (!form.success) {
      status = 400;
      errors = { form: [form.error.issues[0]?.message ?? 'Ação inválida.'] };
    } else {
      try {
        await USER_PAGE_ACTIONS[form.data.acao](db, actor, Number(form.data.id), ip);
        return { kind: 'redirect', to: `${INVITATIONS_PATH[generation]}?aviso=${form.data.acao}` };
      } catch (error) {
        const failed = asFieldErrors(error);
        if (!failed) throw error;
        status = failed.status;
        errors = { form: Object.values(failed.errors).flat() };
      }
    }
  }
  const result = await listPendingInvitations(db, actor, pageRequest, INVITATIONS_PAGE_SIZE);
  return {
    kind: 'page',
    status,
    props: {
      generation,
      result,
      canChange: mayChangeUsers(actor),
      self,
      listHref: generation === 'v1' ? '/consulta-usuarios' : '/v2/usuario/cadastro/consulta',
      notice: noticeOf(url.searchParams.get('aviso')),
      errors,
    },
  };
}
