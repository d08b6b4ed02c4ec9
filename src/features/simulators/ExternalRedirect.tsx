import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { createClient, toFailure, type ApiBases } from '../../lib/http';

interface RedirectAnswer {
  link: string;
  chaveBroto: string;
  tokenApp: string;
}

type State = { kind: 'loading' } | { kind: 'ready'; answer: RedirectAnswer } | { kind: 'failed'; message: string };

const NETWORK_ERROR = 'Não foi possível falar com o portal. Verifique sua conexão e tente novamente.';

/**
 * The AFS redirect (SPEC §7, docs/decisions/020-afs-redirect.md): asks the portal for a one-time key
 * and posts it to the external simulator with a real form — the only way to take the user there with
 * a POST. A form cannot set headers, so the app token travels as the field `Authorization`
 * ('Bearer …'). The form submits itself; 'Continuar' is there for when the browser holds it back.
 */
export default function ExternalRedirect({ apis, tipo, productName }: { apis: ApiBases; tipo: string; productName: string }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const form = useRef<HTMLFormElement>(null);
  const asked = useRef(false);

  const ask = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      const answer = await createClient(apis, 'plataforma')<{ resultado: RedirectAnswer }>('/v1/simuladores/redirect', { query: { tipo } });
      setState({ kind: 'ready', answer: answer.resultado });
    } catch (error) {
      const failure = toFailure(error);
      setState({ kind: 'failed', message: failure.status === 0 ? NETWORK_ERROR : failure.message });
    }
  }, [apis, tipo]);

  // Each call retires the previous key: ask once per page view.
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void ask();
  }, [ask]);

  useEffect(() => {
    if (state.kind === 'ready') form.current?.submit();
  }, [state]);

  if (state.kind === 'failed') {
    return (
      <div className="redirect">
        <div className="alert alert-error" role="alert">
          {state.message}
        </div>
        <div className="actions">
          <Button type="button" onClick={() => void ask()}>
            Tentar novamente
          </Button>
          <a className="button button-outline" href="/home">
            Voltar ao início
          </a>
        </div>
      </div>
    );
  }

  return (
    <div className="redirect">
      <p role="status">Redirecionando para o {productName}…</p>
      {state.kind === 'ready' ? (
        <form ref={form} method="post" action={state.answer.link} aria-label={`Acesso ao ${productName}`}>
          <input type="hidden" name="chaveBroto" value={state.answer.chaveBroto} />
          <input type="hidden" name="Authorization" value={`Bearer ${state.answer.tokenApp}`} />
          <p className="muted">Se nada acontecer em alguns segundos, clique em Continuar.</p>
          <Button type="submit">Continuar</Button>
        </form>
      ) : null}
    </div>
  );
}
