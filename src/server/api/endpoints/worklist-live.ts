import { endpoint } from '../router';
import type { SessionKind } from '../../db/schema';
import type { Generation } from '../../../lib/quote-flow';
import { loadV1User, loadV2User } from '../../services/identity/principals';
import { openWorklistStream } from '../live-worklist';

/** The path of the live worklist's stream under each generation's base (the shell's client opens it). */
export const WORKLIST_EVENTS_PATH = '/v1/pendencias/eventos';

const KINDS: Record<Generation, readonly SessionKind[]> = { v1: ['v1'], v2: ['v2'] };

/**
 * GET /v1/pendencias/eventos (issue 31): the live worklist's server-sent events — on the platform API
 * for a legacy session, on the BFF for a v2 one. Under the API bases, not a page: the router's gate
 * is the one a script's call needs (a 401 in JSON without a session, never a redirect to the sign-in
 * page that EventSource would follow and then retry forever), it already hands a Response on as it
 * is, and the page pipeline's guards (menus, route sets) have nothing to say about a count.
 */
export function worklistLiveEndpoints(generation: Generation) {
  const kinds = KINDS[generation];
  return [
    endpoint({
      method: 'GET',
      path: WORKLIST_EVENTS_PATH,
      auth: kinds,
      async handle(ctx) {
        return openWorklistStream({
          db: ctx.db,
          request: ctx.request,
          user: ctx.auth.user,
          kinds,
          viewerOf: async (user) =>
            generation === 'v1'
              ? { generation: 'v1', user: await loadV1User(ctx.db, user) }
              : { generation: 'v2', user: await loadV2User(ctx.db, user, { fullyAuthenticated: false }) },
        });
      },
    }),
  ];
}
