import { messagesByField } from '../../lib/field-errors';
import type * as core from 'zod/v4/core';

/**
 * An error the API answers as JSON `{ status, message, erros? }` with its HTTP status. Anything
 * else thrown inside a handler becomes a 500 with a generic message and no stack trace.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fieldErrors?: Record<string, string[]>) => new ApiError(400, message, fieldErrors);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message = 'Você não tem permissão para esta operação.') => new ApiError(403, message);
export const notFound = (message = 'Recurso não encontrado.') => new ApiError(404, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'Muitas tentativas. Aguarde alguns minutos e tente novamente.', undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/**
 * zod issues as `{ 'prefix.field.sub': [messages] }`, the field-error shape of every 400. An issue
 * about the whole value (no path) is filed under `prefix`, or under `root` when there is no prefix.
 */
export function fieldErrorsOf(error: core.$ZodError, prefix = '', root = 'body'): Record<string, string[]> {
  return messagesByField(error.issues, (issue) => [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || root);
}
