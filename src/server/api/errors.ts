import { DomainError, type Refusal } from '../errors';

/**
 * An error the API answers as JSON `{ status, message, erros?, codigo? }` with its HTTP status: what the edge
 * itself refuses (a method not allowed, a body past its limit) and, through `apiErrorOf`, every
 * refusal of the domain. Anything else thrown inside a handler becomes a 500 with a generic message
 * and no stack trace.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
    /** What a client may act on (`codigo` in the answer): CONFIRMACAO_NECESSARIA asks for a recent proof. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The one table from the domain's refusals to HTTP (the router and the page controllers' helper read it). */
export const HTTP_STATUS: Readonly<Record<Refusal, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'too-many': 429,
  'storage-full': 507,
};

/** A refusal as the API answers it; undefined for anything that is not a refusal (a bug: a 500). */
export function apiErrorOf(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const headers = error.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(error.retryAfterSeconds) };
  return new ApiError(HTTP_STATUS[error.kind], error.message, error.fieldErrors, headers, error.code);
}
