import {
  addErrorHandler,
  getAppNames,
  getAppStatus,
  registerApplication,
  setBootstrapMaxTime,
  setMountMaxTime,
  setUnloadMaxTime,
  setUnmountMaxTime,
  start,
  triggerAppChange,
  type LifeCycles,
} from 'single-spa';
import { isActiveOn, mayRegister, retryAddress, type EmbeddedApp } from '../../../lib/embedded-apps';
import { shareReact } from './shared-react';

/** SPEC §9: warn after 1000 ms, never fail on time; bootstrap 4000 ms, the rest 3000 ms. */
export const TIMEOUTS = { bootstrap: 4000, mount: 3000, unmount: 3000, unload: 3000, update: 3000, warnAfter: 1000 } as const;
/** SPEC §4: single-spa loads an app in LOAD_ERROR again only 200 ms after the failure. */
export const LOAD_RETRY_MS = 200;
/** SPEC §8: a warning when the orchestrator has not started within 5 s. */
export const START_WARNING_MS = 5000;

let configured = false;
let started = false;

/** The orchestrator's global settings, once per page however many hosts render. */
function configure(onError: (app: string, error: Error) => void): void {
  if (configured) return;
  configured = true;
  shareReact();
  setBootstrapMaxTime(TIMEOUTS.bootstrap, false, TIMEOUTS.warnAfter);
  setMountMaxTime(TIMEOUTS.mount, false, TIMEOUTS.warnAfter);
  setUnmountMaxTime(TIMEOUTS.unmount, false, TIMEOUTS.warnAfter);
  setUnloadMaxTime(TIMEOUTS.unload, false, TIMEOUTS.warnAfter);
  addErrorHandler((error) => onError(error.appOrParcelName, error));
}

let watching = false;

/**
 * Called when the host appears, before any simulator start: an app waiting for an nrOferta that
 * never comes leaves single-spa unstarted, and that is what the warning is for.
 */
export function watchStart(): void {
  if (watching) return;
  watching = true;
  window.setTimeout(() => {
    if (!started) console.warn(`O orquestrador das aplicações de emissão não foi iniciado em ${START_WARNING_MS / 1000} s.`);
  }, START_WARNING_MS);
}

export interface HostedApp {
  app: EmbeddedApp;
  address: string;
  container: () => HTMLElement;
  customProps: Record<string, unknown>;
}

/**
 * One embedded app's place in single-spa: registered once (getAppNames first), loaded from its
 * address — a new `?retry=N` address after each retry, since the browser keeps a failed import —
 * and given the update timeout, which single-spa sets per app rather than globally.
 */
export function hostApp(hosted: HostedApp, onError: (app: string, error: Error) => void, start_: { nrOferta?: number }): boolean {
  configure(onError);
  if (!mayRegister(hosted.app, getAppNames(), start_)) return false;
  let attempt = 0;
  const load = async (): Promise<LifeCycles> => {
    const url = retryAddress(hosted.address, attempt);
    const module: LifeCycles = await import(/* @vite-ignore */ url);
    return { ...module, timeouts: { ...TIMEOUTS_OF_APP } } as LifeCycles;
  };
  retries.set(hosted.app.name, () => {
    attempt += 1;
  });
  registerApplication({
    name: hosted.app.name,
    app: load,
    activeWhen: (location) => isActiveOn(hosted.app, location.pathname),
    customProps: () => ({ ...hosted.customProps, ...start_, domElement: hosted.container() }),
  });
  if (!started) {
    started = true;
    start({ urlRerouteOnly: true });
  }
  return true;
}

const TIMEOUTS_OF_APP = {
  bootstrap: { millis: TIMEOUTS.bootstrap, dieOnTimeout: false, warningMillis: TIMEOUTS.warnAfter },
  mount: { millis: TIMEOUTS.mount, dieOnTimeout: false, warningMillis: TIMEOUTS.warnAfter },
  unmount: { millis: TIMEOUTS.unmount, dieOnTimeout: false, warningMillis: TIMEOUTS.warnAfter },
  unload: { millis: TIMEOUTS.unload, dieOnTimeout: false, warningMillis: TIMEOUTS.warnAfter },
  update: { millis: TIMEOUTS.update, dieOnTimeout: false, warningMillis: TIMEOUTS.warnAfter },
};

const retries = new Map<string, () => void>();

/**
 * "Tentar novamente": the next load asks for a new address, and once 200 ms have passed since the
 * failure single-spa loads an app in LOAD_ERROR again on the next routing event, which we trigger.
 */
export async function retryLoad(name: string, failedAt: number): Promise<void> {
  retries.get(name)?.();
  const wait = failedAt + LOAD_RETRY_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => window.setTimeout(resolve, wait + 10));
  await triggerAppChange();
}

export const statusOf = (name: string): string => getAppStatus(name) ?? 'NOT_REGISTERED';

/** The single-spa events after which an app's status may have changed. */
export const STATUS_EVENTS = ['single-spa:app-change', 'single-spa:routing-event', 'single-spa:no-app-change'] as const;
