import type * as z from 'zod/mini';
import { messagesByField } from '../../lib/field-errors';
import type { ApiBases } from '../../lib/http';
import { post, type PostResult } from '../proposals/post';

/** The API base of a generation's session: the BFF for v2, the platform API for the legacy portal. */
export const baseOf = (generation: 'v1' | 'v2') => (generation === 'v2' ? 'bff' : 'plataforma');

/** A form's answer checked as the server will check it: its field errors keyed by the whole path. */
export function checked<T>(
  schema: z.ZodMiniType<T>,
  value: unknown,
): { ok: true; data: T } | { ok: false; errors: Record<string, string[]> } {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, errors: messagesByField(parsed.error.issues, (issue) => issue.path.map(String).join('.') || 'body') };
}

/** Sends a cancellation step to `/v1/apolices/{id}/cancelamento{/step}`. */
export const sendStep = <T = unknown>(
  apis: ApiBases,
  generation: 'v1' | 'v2',
  idContratacao: number,
  step: '' | '/motivo' | '/coberturas',
  body: Record<string, unknown>,
): Promise<PostResult<T>> =>
  post<T>(apis, baseOf(generation), `/v1/apolices/${idContratacao}/cancelamento${step}`, body, step ? 'PUT' : 'POST');
