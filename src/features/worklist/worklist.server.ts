import { database } from '../../server/boot/database';
import { now } from '../../server/clock';
import { markAllRead, markRead, worklist } from '../../server/services/reporting/worklist';
import { viewerOf, type PortalSession } from '../../lib/session';
import { isWorklistKind, parseItemKey, WORKLIST_PAGE, type WorklistGroup, type WorklistKind } from '../../lib/worklist';

/*
 * /pendencias and /v2/pendencias (issue 31): the viewer's worklist, server-rendered; "Marcar como
 * lida" and "Marcar todas como lidas" are plain form posts to the page (the middleware refuses a
 * cross-site post), answered with a redirect back — no script needed.
 */

export interface WorklistPageProps {
  status: number;
  generation: 'v1' | 'v2';
  groups: WorklistGroup[];
  kind?: WorklistKind;
  /** Every kind the viewer has items of, for the filter (only when the page is not filtered). */
  error?: string;
}

const MESSAGES = {
  badKey: 'Pendência não encontrada: atualize a página e tente de novo.',
  badAction: 'Escolha marcar uma pendência ou todas como lidas.',
} as const;

const back = (generation: 'v1' | 'v2', kind: string | undefined) =>
  `${WORKLIST_PAGE[generation]}${kind && isWorklistKind(kind) ? `?${new URLSearchParams({ tipo: kind })}` : ''}`;

export async function worklistPage(
  session: PortalSession,
  request: Request,
  url: URL,
  generation: 'v1' | 'v2',
): Promise<WorklistPageProps | { redirect: string }> {
  const db = await database();
  // The middleware let only a signed-in viewer of this generation in; the worklist shows only what their scope allows.
  const viewer = viewerOf(session, generation)!;
  let status = 200;
  let error: string | undefined;
  if (request.method === 'POST') {
    const form = await request.formData();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : undefined;
    };
    const action = field('acao');
    if (action === 'todas') {
      await markAllRead(db, viewer.user.idUsuario, now());
      return { redirect: back(generation, field('tipo')) };
    }
    if (action === 'lida') {
      const key = parseItemKey(field('chave'));
      if (key) {
        await markRead(db, viewer.user.idUsuario, key, now());
        return { redirect: back(generation, field('tipo')) };
      }
      error = MESSAGES.badKey;
    } else error = MESSAGES.badAction;
    status = 400;
  }
  const tipo = url.searchParams.get('tipo') ?? undefined;
  const kind = isWorklistKind(tipo) ? tipo : undefined;
  const groups = await worklist(db, viewer, { kind });
  return { status, generation, groups, kind, error };
}
