import { messagesByField } from '../lib/field-errors';
import type * as core from 'zod/v4/core';

/**
 * Why the server refuses: the domain's words. Each edge (the API router, the page controllers'
 * helper) turns a kind into an HTTP status by one table (api/errors.ts), so a rule
 * never chooses a status and the same refusal reads the same on every edge.
 */
export type Refusal =
  | 'invalid' // the input breaks a rule: field errors say which
  | 'unauthenticated' // who asks is not known (no session, a bad signature)
  | 'forbidden' // known, but not allowed to
  | 'not-found' // absent, or outside the asker's scope (DESIGN §10: the two look alike)
  | 'conflict' // allowed, but not in the record's present state
  | 'gone' // was valid once: a used link, an expired code
  | 'too-large' // a body or file past its limit
  | 'too-many' // attempts past their rate: try again after `retryAfterSeconds`
  | 'storage-full'; // the disk floor is reached

export class DomainError extends Error {
  constructor(
    readonly kind: Refusal,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    readonly retryAfterSeconds?: number,
    /** A word a client may act on without reading the message (the API answers it as `codigo`). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string, fieldErrors?: Record<string, string[]>) => new DomainError('invalid', message, fieldErrors);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message = 'Você não tem permissão para esta operação.') => new DomainError('forbidden', message);
export const notFound = (message = 'Recurso não encontrado.') => new DomainError('not-found', message);
export const conflict = (message: string, fieldErrors?: Record<string, string[]>) => new DomainError('conflict', message, fieldErrors);
export const gone = (message: string) => new DomainError('gone', message);
export const tooLarge = (message: string, fieldErrors?: Record<string, string[]>) => new DomainError('too-large', message, fieldErrors);
export const storageFull = (message: string, fieldErrors?: Record<string, string[]>) =>
  new DomainError('storage-full', message, fieldErrors);
export const tooManyAttempts = (retryAfterSeconds: number, message = 'Muitas tentativas. Aguarde alguns minutos e tente novamente.') =>
  new DomainError('too-many', message, undefined, retryAfterSeconds);

/**
 * zod issues as `{ 'prefix.field.sub': [messages] }`, the field-error shape of every refusal. An
 * issue about the whole value (no path) is filed under `prefix`, or under `root` when there is none.
 */
export function fieldErrorsOf(error: core.$ZodError, prefix = '', root = 'body'): Record<string, string[]> {
  return messagesByField(error.issues, (issue) => [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || root);
}
