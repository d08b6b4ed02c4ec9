import React from 'react';
import ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { EmbeddedProps } from './custom-props';

/**
 * single-spa lifecycles of one embedded app: React (the portal's, through the build's shims) renders
 * `Root` into the container the host gives in customProps. An error while rendering marks the app
 * broken in single-spa (SKIP_BECAUSE_BROKEN) instead of blanking the page.
 */
export function issuanceLifecycles(Root: (props: EmbeddedProps) => React.ReactNode) {
  return singleSpaReact<EmbeddedProps>({
    React,
    ReactDOMClient,
    rootComponent: Root as never,
    domElementGetter: (props) => props.domElement,
    errorBoundary: () => (
      <div className="alert alert-error" role="alert">
        A aplicação encontrou um erro. Recarregue a página ou tente mais tarde.
      </div>
    ),
  });
}
