import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { findEmbeddedApp, registrationStart, type EmbeddedAppName } from '../../../lib/embedded-apps';
import { createClient, payloadOf, toFailure, type ApiBases } from '../../../lib/http';
import type { EmbeddedSession } from '../apps/custom-props';
import { hostApp, retryLoad, STATUS_EVENTS, statusOf, watchStart } from './orchestrator';

/** The statuses on the way to MOUNTED: the container is busy (a load error or a broken app is not). */
const LOADING_STATUSES = ['NOT_REGISTERED', 'NOT_LOADED', 'LOADING_SOURCE_CODE', 'NOT_BOOTSTRAPPED', 'BOOTSTRAPPING', 'MOUNTING'];

interface Props {
  app: EmbeddedAppName;
  /** Built on the server from configuration (lib/embedded-apps.ts bundleAddress). */
  address: string;
  apis: ApiBases;
  sessao: EmbeddedSession;
}

/**
 * The one island of an /emissao page: starts the simulator session where SPEC §2/§4 ask for it,
 * registers the app with single-spa once, and shows its lifecycle status on the container
 * (`data-app-status`), a retry after a load error and a notice when the app broke.
 */
export default function EmbeddedHost({ app: name, address, apis, sessao }: Props) {
  const app = findEmbeddedApp(name)!;
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState('NOT_REGISTERED');
  const [startFailure, setStartFailure] = useState<string>();
  const [retrying, setRetrying] = useState(false);
  const failedAt = useRef(0);

  useEffect(() => {
    watchStart();
    const update = () => {
      const next = statusOf(name);
      if (next === 'LOAD_ERROR' && failedAt.current === 0) failedAt.current = Date.now();
      setStatus(next);
    };
    for (const event of STATUS_EVENTS) window.addEventListener(event, update);
    // The server's log gets the app, its status and the message; the page keeps working either way.
    const reportError = (message: string) =>
      void createClient(apis, 'plataforma')('/v1/aplicacoes/erros', {
        method: 'POST',
        body: { app: name, status: statusOf(name), mensagem: message.slice(0, 500) || 'Erro sem mensagem.' },
      }).catch(() => undefined);
    const report = (appName: string, error: Error) => {
      if (appName !== name) return;
      update();
      reportError(error.message || String(error));
    };
    const register = (nrOferta?: number) => {
      const customProps = { apis, sessao, app: name, reportError };
      hostApp({ app, address, container: () => container.current!, customProps }, report, { nrOferta });
      update();
    };
    const start = registrationStart(app, window.location.pathname);
    const request = createClient(apis, 'plataforma');
    if (start.kind === 'none') register();
    else {
      const offer =
        start.kind === 'simulator'
          ? request<{ resultado?: { nrOferta?: number } }>('/v1/simuladores/iniciar', { method: 'POST', body: app.simulator }).then(
              (answer) => payloadOf(answer)?.nrOferta,
            )
          : request<{ resultado?: { cotacao: { nrOferta?: number } } }>(`/v1/cotacoes/${start.nrCotacao}`).then(
              (answer) => payloadOf(answer)?.cotacao.nrOferta,
            );
      const failing = start.kind === 'simulator' ? 'Não foi possível iniciar a emissão' : 'Não foi possível abrir a cotação';
      offer
        .then((nrOferta) => {
          if (typeof nrOferta === 'number') register(nrOferta);
          else setStartFailure(`${failing}: não há oferta para esta emissão.`);
        })
        .catch((error) => setStartFailure(`${failing}: ${toFailure(error).message}`));
    }
    return () => {
      for (const event of STATUS_EVENTS) window.removeEventListener(event, update);
    };
  }, [name, app, address, apis, sessao]);

  async function retry() {
    setRetrying(true);
    await retryLoad(name, failedAt.current);
    failedAt.current = 0;
    setRetrying(false);
    setStatus(statusOf(name));
  }

  const loading = !startFailure && LOADING_STATUSES.includes(status);
  return (
    <section className="embedded-app" data-embedded-app={name} data-app-status={status} aria-busy={loading}>
      {startFailure ? (
        <div className="alert alert-error" role="alert">
          {startFailure}
        </div>
      ) : null}
      {status === 'LOAD_ERROR' ? (
        <div className="alert alert-error embedded-app-alert" role="alert">
          <p>Não foi possível carregar a aplicação {app.title}. Verifique sua conexão e tente novamente.</p>
          <Button type="button" onClick={retry} loading={retrying}>
            Tentar novamente
          </Button>
        </div>
      ) : null}
      {status === 'SKIP_BECAUSE_BROKEN' ? (
        <div className="alert alert-error" role="alert">
          A aplicação {app.title} encontrou um erro e foi interrompida. O restante do portal continua funcionando;{' '}
          <a href="/home">volte ao início</a> ou tente mais tarde.
        </div>
      ) : null}
      {loading ? (
        <p className="embedded-app-loading" role="status">
          Carregando {app.title}…
        </p>
      ) : null}
      {/* The app renders here; React of this island never renders children into it. */}
      <div ref={container} className="embedded-app-container" id={`single-spa-application:${name}`} />
    </section>
  );
}
