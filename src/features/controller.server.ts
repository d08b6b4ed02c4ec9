import { database } from '../server/boot/database';
import { apiErrorOf } from '../server/api/errors';
import type { V2ProfileCode } from '../server/db/schema';
import { actorOf } from '../server/services/network/user-admin';
import type { FieldErrors } from '../lib/user-admin';
import type { PortalSession } from '../lib/session';

/*
 * What every page controller (features/<domain>/*.server.ts) shares: the shape of its answer, the
 * form it reads, and the one place a refusal of the domain becomes the page's HTTP status. Named
 * `.server.ts`, like the controllers, so no island can import it by mistake (biome.json).
 */

type Elsewhere = { kind: 'redirect'; to: string } | { kind: 'not-found' } | { kind: 'forbidden' };

/**
 * A page controller's answer: the page with its status and props, or one of the outcomes it may
 * send elsewhere (by default a redirect or the 404 page) — only those its page must handle.
 */
export type Routed<P, Outcome extends Elsewhere['kind'] = 'redirect' | 'not-found'> =
  | { kind: 'page'; status: number; props: P }
  | Extract<Elsewhere, { kind: Outcome }>;

/** A request's form, or an empty one when the body is not a form (a 400 with every message follows). */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}

/** The id a route's address names (a positive integer the database's `integer` holds), or undefined: the 404. */
export function recordIdOf(value: string | undefined): number | undefined {
  return value && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_000_000_000 ? Number(value) : undefined;
}

/** A refusal of the domain as the page answers it (its HTTP status, message, field errors and headers); undefined for a bug. */
export function refusalOf(error: unknown) {
  const refusal = apiErrorOf(error);
  return refusal && refusal.status < 500 ? refusal : undefined;
}

/** A download whose stored file the store lacks (its 404 refusal, server/files.ts storedDownload) is the 404 page, not a 500. */
export const notFoundAsUndefined = <T>(work: Promise<T>): Promise<T | undefined> =>
  work.catch((error: unknown) => {
    if (refusalOf(error)?.status === 404) return undefined;
    throw error;
  });

/** A refusal with field errors becomes the form's messages; a 400/403/404/409 the page's; anything else goes on. */
export function asFieldErrors(error: unknown): { status: number; errors: FieldErrors } | undefined {
  const refusal = refusalOf(error);
  if (!refusal) return undefined;
  if (refusal.fieldErrors) return { status: refusal.status === 409 ? 409 : 400, errors: refusal.fieldErrors };
  if ([400, 403, 404, 409].includes(refusal.status)) return { status: refusal.status, errors: { form: [refusal.message] } };
  return undefined;
}

/** The database and the signed-in administrator as the rules' actor (the middleware's guard let them in). */
export async function adminContext(session: PortalSession, generation: 'v1' | 'v2') {
  const db = await database();
  const id = generation === 'v1' ? session.v1!.idUsuario : session.v2!.idUsuario;
  const profile = generation === 'v2' ? (session.v2!.cdPerfilUsuario as V2ProfileCode) : null;
  return { db, actor: await actorOf(db, { id, generation, profile }) };
}
