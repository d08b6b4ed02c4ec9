import { createClient, payloadOf, toFailure, type ApiBases } from './http';

export type PostResult<T = unknown> = { ok: true; data: T } | { ok: false; message: string; errors: Record<string, string[]> };

/** One write to the API (POST unless told); a session that ended is taken to the login by the client. */
export async function post<T = unknown>(
  apis: ApiBases,
  base: 'bff' | 'plataforma',
  path: string,
  body: Record<string, unknown>,
  method: 'POST' | 'PUT' | 'DELETE' = 'POST',
): Promise<PostResult<T>> {
  try {
    return { ok: true, data: payloadOf(await createClient(apis, base)<{ resultado?: T; dado?: T }>(path, { method, body })) };
  } catch (error) {
    const failure = toFailure(error);
    return { ok: false, message: failure.message, errors: failure.fieldErrors };
  }
}
