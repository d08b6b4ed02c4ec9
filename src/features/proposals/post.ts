import { createClient, toFailure, type ApiBases } from '../../lib/http';

export type PostResult = { ok: true } | { ok: false; message: string; errors: Record<string, string[]> };

/** One POST of a proposal action; a session that ended is taken to the login by the client. */
export async function post(apis: ApiBases, base: 'bff' | 'plataforma', path: string, body: Record<string, unknown>): Promise<PostResult> {
  try {
    await createClient(apis, base)(path, { method: 'POST', body });
    return { ok: true };
  } catch (error) {
    const failure = toFailure(error);
    return { ok: false, message: failure.message, errors: failure.fieldErrors };
  }
}
