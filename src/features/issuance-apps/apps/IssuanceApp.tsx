import { useEffect, useState } from 'react';
import { findEmbeddedApp, parseEmbeddedRoute } from '../../../lib/embedded-apps';
import { findSimulatorCode } from '../../../lib/simulators';
import { AppNotFound } from './AppNotFound';
import type { EmbeddedProps } from './custom-props';
import { setEmbeddedBase } from './embedded-quote-flow';
import { NewIssuance, QuoteStepView } from './QuoteStepView';
import { QuoteList } from './QuoteList';

/**
 * The root of every embedded issuance app: reads the address under the app's base path and shows
 * the consultation, a new issuance (the simulator start's offer), a quote's step or the app's own
 * not-found page. Steps are the portal's simulator components with the app's addresses.
 */
export function IssuanceApp(props: EmbeddedProps) {
  const app = findEmbeddedApp(props.app)!;
  const [path, setPath] = useState(() => window.location.pathname);
  setEmbeddedBase(app.basePath);

  useEffect(() => {
    // single-spa announces every navigation (pushState included) with this event.
    const follow = () => setPath(window.location.pathname);
    window.addEventListener('single-spa:routing-event', follow);
    return () => window.removeEventListener('single-spa:routing-event', follow);
  }, []);

  const route = parseEmbeddedRoute(app, path);
  const simulator = findSimulatorCode(app.simulator.cdTipoSimulador)!;
  useEffect(() => {
    if (route.kind === 'redirect') window.location.replace(route.path);
  }, [route]);

  return (
    <div className="issuance-app" data-sessao={props.sessao.tipo}>
      {route.kind === 'list' ? <QuoteList apis={props.apis} produtos={props.sessao.produtos} /> : null}
      {route.kind === 'new' ? (
        props.nrOferta ? (
          <NewIssuance apis={props.apis} simulator={simulator} nrOferta={props.nrOferta} />
        ) : (
          <div className="alert alert-error" role="alert">
            Não há oferta vigente deste produto para a sua empresa.
          </div>
        )
      ) : null}
      {route.kind === 'step' ? (
        <QuoteStepView
          key={path}
          apis={props.apis}
          simulator={simulator}
          nrCotacao={route.nrCotacao}
          step={route.step}
          action={route.action}
        />
      ) : null}
      {route.kind === 'not-found' ? <AppNotFound /> : null}
    </div>
  );
}
