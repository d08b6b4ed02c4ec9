import { FetchError, ofetch, type $Fetch } from 'ofetch';
import { isSessionEndReason, isTokenMessage, COOKIE_SESSION_HEADER } from './session';
import { loginRedirect } from './paths';

/**
 * The islands' one HTTP client (DESIGN §1). Tokens travel as httpOnly cookies, so the client only
 * asks for cookie sessions; a 401/403 carrying a SPEC §8 token message clears the session and goes
 * to the generation's login saying why ('sessao=expirada') and keeping the page the user was on as
 * `next`, so the sign-in brings them back to it (`/signin` for the platform API, `/v2/login` for the
 * other bases).
 */
export interface ApiBases {
  plataforma: string;
  bff: string;
  gateway: string;
  auth: string;
}

/** An API error as the islands use it: status, message, field errors and the answer's `codigo`, if any. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly code?: string,
  ) {
    super(message);
  }
}

export const DEFAULT_ERROR = { title: 'Erro ao realizar requisição', text: 'Tente novamente mais tarde!' } as const;

export function toFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (error instanceof FetchError) {
    const data = error.data as { message?: unknown; erros?: Record<string, string[]>; codigo?: unknown } | undefined;
    const message = typeof data?.message === 'string' ? data.message : DEFAULT_ERROR.text;
    return new ApiFailure(error.status ?? 0, message, data?.erros ?? {}, typeof data?.codigo === 'string' ? data.codigo : undefined);
  }
  return new ApiFailure(0, DEFAULT_ERROR.text);
}

/** A refusal that means the session is over (SPEC §8 token messages), not a refusal of the input. */
export const endsSession = (status: number, message: unknown): boolean => (status === 401 || status === 403) && isTokenMessage(message);

/**
 * Where a session that ended on `here` (path and query) sends the user: the login, saying why — that
 * it expired, or who ended it (the 401's `codigo`, lib/session.ts SESSION_END_NOTICES) — then back.
 */
export const expiredSessionTarget = (generation: 'v1' | 'v2', here: string, ended?: unknown): string =>
  `${loginRedirect(generation, here)}&sessao=${isSessionEndReason(ended) ? ended : 'expirada'}`;

/** The base of a generation's session: the BFF for v2, the platform API for the legacy portal. */
export const apiBaseOf = (generation: 'v1' | 'v2'): 'bff' | 'plataforma' => (generation === 'v2' ? 'bff' : 'plataforma');

/** The payload of an answer: the platform API wraps it in `resultado`, the other bases in `dado`. */
export const payloadOf = <T>(answer: { dado?: T; resultado?: T }): T => (answer.dado ?? answer.resultado) as T;

const goTo = (url: string) => window.location.assign(url);
/** The page's path and query: where a login brings the user back, and the key of a step's draft. */
export const currentAddress = () => `${window.location.pathname}${window.location.search}`;

/** Clears a session the server said is over and goes to the generation's login, saying why. */
export async function leaveEndedSession(
  bases: ApiBases,
  generation: 'v1' | 'v2',
  navigate = goTo,
  here = currentAddress,
  ended?: unknown,
): Promise<void> {
  await ofetch(`${bases.auth}/v1/logout`, { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  navigate(expiredSessionTarget(generation, here(), ended));
}

export function createClient(
  bases: ApiBases,
  base: keyof ApiBases,
  navigate: (url: string) => void = goTo,
  here: () => string = currentAddress,
): $Fetch {
  return ofetch.create({
    baseURL: bases[base],
    credentials: 'same-origin',
    headers: { [COOKIE_SESSION_HEADER]: 'cookie' },
    async onResponseError({ response }) {
      const data = response._data as { message?: unknown; codigo?: unknown } | undefined;
      if (endsSession(response.status, data?.message))
        await leaveEndedSession(bases, base === 'plataforma' ? 'v1' : 'v2', navigate, here, data?.codigo);
    },
  });
}
