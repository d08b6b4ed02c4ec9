import type { APIRoute } from 'astro';
import { database } from '../server/boot/database';
import { signOut } from '../server/services/identity/auth';
import { TOKEN_COOKIES } from '../lib/session';
import { PUBLIC_HOME } from '../lib/paths';
import { sessionCookieOptions } from '../server/api/cookies';

/**
 * 'Sair' as a plain form post, so signing out works without JavaScript: every session of the
 * browser is revoked (and logged), the cookies cleared, and the user goes to `/` (legacy) or `/v2/login`.
 */
export const POST: APIRoute = async ({ cookies, request, redirect, locals }) => {
  const form = await request.formData().catch(() => undefined);
  const generation = form?.get('geracao') === 'v2' ? 'v2' : 'v1';
  await signOut(
    await database(),
    Object.values(TOKEN_COOKIES).map((name) => cookies.get(name)?.value),
    locals.client.ip,
  );
  for (const name of Object.values(TOKEN_COOKIES)) cookies.delete(name, sessionCookieOptions(locals.client.https));
  return redirect(PUBLIC_HOME[generation], 303);
};
