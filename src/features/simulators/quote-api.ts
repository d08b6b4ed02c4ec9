import { apiBaseOf, createClient, endsSession, payloadOf, toFailure, type ApiBases } from '../../lib/http';
import type { QuoteView } from '../../lib/quotes';
import type { Generation } from '../../lib/quote-flow';
import { serverErrors, type FieldErrors } from './form';

/**
 * The step forms' calls. v2 quotes go to the BFF, legacy ones to the platform API; both take the
 * same paths and bodies (server/api/endpoints/quotes.ts).
 */
/** `sessionEnded`: the session was over and the client is already on its way to the login. */
export type SaveResult<T> = { ok: true; value: T } | { ok: false; message: string; errors: FieldErrors; sessionEnded?: boolean };

function client(apis: ApiBases, generation: Generation) {
  const request = createClient(apis, apiBaseOf(generation));
  return async <T>(path: string, init: { method: string; body?: unknown }): Promise<SaveResult<T>> => {
    try {
      const answer = await request<{ dado?: T; resultado?: T }>(path, {
        method: init.method as 'POST',
        body: init.body as Record<string, unknown>,
      });
      return { ok: true, value: payloadOf(answer) };
    } catch (error) {
      const failure = toFailure(error);
      return {
        ok: false,
        message: failure.message,
        errors: serverErrors(failure.fieldErrors),
        sessionEnded: endsSession(failure.status, failure.message),
      };
    }
  };
}

export function quoteApi(apis: ApiBases, generation: Generation) {
  const call = client(apis, generation);
  return {
    create: (body: { nrOferta: number; segurado: unknown; respostas: unknown }) =>
      call<{ cotacao: QuoteView }>('/v1/cotacoes', { method: 'POST', body }),
    save: (nrCotacao: string, step: 'cadastro' | 'risco' | 'planos' | 'contratacao', body: unknown) =>
      call<{ cotacao: QuoteView }>(`/v1/cotacoes/${nrCotacao}/${step}`, { method: 'PUT', body }),
    propose: (nrCotacao: string, aceiteTermo: boolean) =>
      call<{ nrProposta: string; cotacao: QuoteView }>(`/v1/cotacoes/${nrCotacao}/proposta`, { method: 'POST', body: { aceiteTermo } }),
  };
}

export const goTo = (path: string) => window.location.assign(path);

/** Gives the current history entry the address `path` without loading it: Back and reload then lead there. */
export const replaceAddress = (path: string) => window.history.replaceState(window.history.state, '', path);
