import { useState } from 'react';
import type * as z from 'zod/mini';
import { messagesByField } from '../../lib/field-errors';
import { apiBaseOf, type ApiBases } from '../../lib/http';
import { post, type PostResult } from '../../lib/post';
import { useHydrated } from '../../components/ui/useHydrated';

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
  post<T>(apis, apiBaseOf(generation), `/v1/apolices/${idContratacao}/cancelamento${step}`, body, step ? 'PUT' : 'POST');

/**
 * A cancellation step's form state: its field errors, the failure that belongs to no field, and the
 * busy button. `send` shows a refusal where it belongs (`field` renames the server's keys to the
 * form's); on success `done` runs with the button still busy, since the page is about to change.
 */
export function useStepForm() {
  // The steps' forms post through their island only: until it runs, a click would submit the bare
  // form to this address and lose the contract in its query — their submit waits for it instead.
  const ready = useHydrated();
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function send<T>(request: () => Promise<PostResult<T>>, done: (data: T) => void, field = (key: string) => key) {
    setBusy(true);
    const result = await request();
    if (result.ok) return done(result.data);
    setBusy(false);
    const fields = Object.fromEntries(Object.entries(result.errors).map(([key, messages]) => [field(key), messages]));
    setErrors(fields);
    if (Object.keys(fields).length === 0) setFailure(result.message);
  }

  return { errors, setErrors, failure, setFailure, busy, ready, send };
}
