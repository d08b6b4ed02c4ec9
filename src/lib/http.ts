import { FetchError, ofetch, type $Fetch } from 'ofetch';
import { isTokenMessage, COOKIE_SESSION_HEADER } from './session';
import { LOGOUT_TARGET } from './paths';

/**
 * The islands' one HTTP client (DESIGN §1). Tokens travel as httpOnly cookies, so the client only
 * asks for cookie sessions; a 401/403 carrying a SPEC §8 token message clears the session and goes
 * to `/` (legacy) or `/v2/login` (BFF, v2).
 */
export interface ApiBases {
  plataforma: string;
  bff: string;
  gateway: string;
  auth: string;
}

/** An API error as the islands use it: status, message and field errors. */
export class ApiFailure extends Error {
  constructor(readonly status: number, message: string, readonly fieldErrors: Record<string, string[]> = {}) {
    super(message);
  }
}

export const DEFAULT_ERROR = { title: 'Erro ao realizar requisição', text: 'Tente novamente mais tarde!' } as const;

export function toFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (error instanceof FetchError) {
    const data = error.data as { message?: unknown; erros?: Record<string, string[]> } | undefined;
    const message = typeof data?.message === 'string' ? data.message : DEFAULT_ERROR.text;
    return new ApiFailure(error.status ?? 0, message, data?.erros ?? {});
  }
  return new ApiFailure(0, DEFAULT_ERROR.text);
}

const goTo = (url: string) => window.location.assign(url);

export function createClient(bases: ApiBases, base: keyof ApiBases, navigate: (url: string) => void = goTo): $Fetch {
  return ofetch.create({
    baseURL: bases[base],
    credentials: 'same-origin',
    headers: { [COOKIE_SESSION_HEADER]: 'cookie' },
    async onResponseError({ response }) {
      const message = (response._data as { message?: unknown } | undefined)?.message;
      if ((response.status === 401 || response.status === 403) && isTokenMessage(message)) {
        await ofetch(`${bases.auth}/v1/logout`, { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
        navigate(base === 'plataforma' ? LOGOUT_TARGET.v1 : LOGOUT_TARGET.v2);
      }
    },
  });
}
