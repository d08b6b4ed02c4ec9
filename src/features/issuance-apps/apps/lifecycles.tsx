import React, { useEffect } from 'react';
import ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { EmbeddedProps } from './custom-props';

/** What an app shows in place of what failed to render, once reported to the server's log. */
function RenderFailure({ error, report }: { error: Error; report?: (message: string) => void }) {
  useEffect(() => report?.(error.message || String(error)), [error, report]);
  return (
    <div className="alert alert-error" role="alert">
      A aplicação encontrou um erro. Recarregue a página ou tente mais tarde.
    </div>
  );
}

/**
 * single-spa lifecycles of one embedded app: React (the portal's, through the build's shims) renders
 * `Root` into the container the host gives in customProps. An error while rendering is caught by
 * single-spa-react's boundary: the app shows a notice in its place (the rest of the page untouched)
 * and reports it as the host reports a lifecycle error.
 */
export function issuanceLifecycles(Root: (props: EmbeddedProps) => React.ReactNode) {
  return singleSpaReact<EmbeddedProps>({
    React,
    ReactDOMClient,
    rootComponent: Root as never,
    domElementGetter: (props) => props.domElement,
    errorBoundary: (error, _info, props) => <RenderFailure error={error} report={(props as EmbeddedProps).reportError} />,
  });
}
