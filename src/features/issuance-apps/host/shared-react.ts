import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';

/**
 * The portal's React, lent to the embedded issuance apps (decision 054): their bundles import
 * `react`, `react-dom`, `react-dom/client` and `react/jsx-runtime` as small shims that read this
 * global, so one copy of React runs on the page. The host sets it before any app loads.
 */
export const SHARED_MODULES_GLOBAL = '__PORTAL_SHARED_MODULES__';

export function shareReact(): void {
  const scope = globalThis as Record<string, unknown>;
  scope[SHARED_MODULES_GLOBAL] ??= {
    react: React,
    'react-dom': ReactDOM,
    'react-dom/client': ReactDOMClient,
    'react/jsx-runtime': jsxRuntime,
  };
}
