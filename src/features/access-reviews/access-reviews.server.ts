import { deactivateIdle, idleTotal, idleUsers, type IdleUser } from '../../server/services/network/access-reviews';
import { ACCESS_REVIEW_MESSAGES, ACCESS_REVIEW_PAGES, deactivateIdleSchema } from '../../lib/access-reviews';
import { pageRequestOf, type KeysetPage } from '../../lib/keyset-pages';
import { mayChangeUsers, type Actor } from '../../lib/user-admin';
import type { DB } from '../../server/db';
import type { PortalSession } from '../../lib/session';
import { adminContext, readForm, refusalOf, type Routed } from '../controller.server';

/*
 * The access review's pages (issue 32, decision 071): legacy /revisao-acessos and v2
 * /v2/usuario/revisao-acessos — the users idle for 90 days the administrator may change, a keyset page
 * at a time, with a plain form that deactivates those ticked, and "todos da revisão", which posts to
 * the bulk actions' preview (decision 076). Needs the right to change users (else the 404).
 */

export interface AccessReviewProps {
  generation: 'v1' | 'v2';
  result: KeysetPage<IdleUser>;
  /** How many the review lists, counted up to one past the bulk bound (the page's own total stops at 1,000). */
  all: number;
  /** After a deactivation: what was done, and who was left and why. */
  notice?: string;
  refused: { nome: string; message: string }[];
  error?: string;
}

const PAGE = /^[1-9]\d{0,5}$/;

export async function accessReviewPage(
  generation: 'v1' | 'v2',
  session: PortalSession,
  url: URL,
  request: Request,
  ip: string,
): Promise<Routed<AccessReviewProps>> {
  const { db, actor } = await adminContext(session, generation);
  if (!mayChangeUsers(actor)) return { kind: 'not-found' };
  const pageText = url.searchParams.get('page');
  const page = pageText && PAGE.test(pageText) ? Number(pageText) : 1;
  const read = async () => withAll(db, actor, await idleUsers(db, actor, pageRequestOf(page, url.searchParams.get('cursor'))));
  if (request.method !== 'POST') return { kind: 'page', status: 200, props: { generation, ...(await read()), refused: [] } };

  const form = await readForm(request);
  const parsed = deactivateIdleSchema.safeParse({ acao: form.get('acao'), usuarios: form.getAll('usuario') });
  if (!parsed.success) {
    const error = parsed.error.issues.map((i) => i.message).join(' ');
    return { kind: 'page', status: 400, props: { generation, ...(await read()), refused: [], error } };
  }
  try {
    const shown = await read();
    const names = new Map(shown.result.content.map((u) => [u.id, u.nome]));
    const done = await deactivateIdle(db, actor, parsed.data.usuarios.map(Number), ip);
    return {
      kind: 'page',
      status: 200,
      props: {
        generation,
        ...(await read()),
        notice: ACCESS_REVIEW_MESSAGES.done(done.deactivated),
        refused: done.refused.map((r) => ({ nome: names.get(r.id) ?? '—', message: r.message })),
      },
    };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return { kind: 'page', status: refusal.status, props: { generation, ...(await read()), refused: [], error: refusal.message } };
  }
}

/** The page, and how many "todos" speaks of. */
const withAll = async (db: DB, actor: Actor, result: KeysetPage<IdleUser>) => ({ result, all: await idleTotal(db, actor, result) });

export const accessReviewPath = (generation: 'v1' | 'v2') => ACCESS_REVIEW_PAGES[generation];
