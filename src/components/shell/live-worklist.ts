import { LIVE_REFRESH_HEADER, WORKLIST_EVENTS_URL } from '../../lib/worklist-notices';

/**
 * The live worklist's client (issue 31), started by the shell: one event stream per browser and
 * generation, not per tab — the tab holding a Web Lock opens it and passes each count to the others
 * over a BroadcastChannel (a browser allows ~6 connections per host over HTTP/1.1); when that tab
 * closes, another takes the lock and opens its own. Without Web Locks each tab opens its own.
 *
 * Each count goes to the shell's bell (`onCount`); when the page lists worklist items
 * (`[data-live-region="pendencias"]`), the page is asked for again and that part swapped in place,
 * keeping focus and scroll, and announced politely. The first count of a stream (on load, after a
 * reconnection) swaps only when it differs from what is shown: the page may be older than the news.
 * A stream the server ended (a restart) the browser opens again by itself; one refused (signed out,
 * too many) again with a growing pause; one whose place a newer page of the user took, not at all. Without JavaScript nothing of this runs: a reload shows the news.
 */
interface CountMessage {
  novos: number;
  /** The stream's first count (it opened or reopened), not a change heard. */
  first: boolean;
}

const MIN_PAUSE_MS = 2_000;
const MAX_PAUSE_MS = 60_000;

export function startLiveWorklist(generation: 'v1' | 'v2', initialCount: number | undefined, onCount: (count: number) => void): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const name = `portal-pendencias-${generation}`;
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pause = MIN_PAUSE_MS;
  let release: (() => void) | undefined;
  let stopped = false;
  let firstOfStream = true;
  let swapping: Promise<void> | undefined;
  let swapAgain = false;

  // What the page shows: the count it was rendered with (the home, the worklist), then the last heard.
  let shown = initialCount;

  async function swapRegion(novos: number) {
    const region = document.querySelector<HTMLElement>('[data-live-region="pendencias"]');
    if (!region) return;
    const response = await fetch(location.href, { headers: { accept: 'text/html', [LIVE_REFRESH_HEADER]: '1' } });
    if (!response.ok || response.redirected) return;
    const next = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('[data-live-region="pendencias"]');
    if (!next) return;
    const active = document.activeElement;
    // Someone typing in the list keeps what they type: the next count swaps it.
    if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement) {
      if (region.contains(active)) return;
    }
    const focused = active instanceof HTMLElement && region.contains(active) ? selectorOf(active) : undefined;
    const { scrollX, scrollY } = window;
    region.replaceChildren(...[...next.childNodes].map((node) => document.importNode(node, true)));
    window.scrollTo(scrollX, scrollY);
    if (focused) region.querySelector<HTMLElement>(focused)?.focus({ preventScroll: true });
    announce(novos === 1 ? 'Pendências atualizadas: 1 nova.' : `Pendências atualizadas: ${novos} novas.`);
  }

  function show({ novos, first }: CountMessage) {
    const changed = novos !== shown;
    shown = novos;
    onCount(novos);
    if (first && !changed) return;
    if (swapping) {
      swapAgain = true;
      return;
    }
    swapping = swapRegion(novos)
      .catch(() => {})
      .finally(() => {
        swapping = undefined;
        if (swapAgain) {
          swapAgain = false;
          show({ novos: shown ?? 0, first: false });
        }
      });
  }

  function connect() {
    if (stopped) return;
    firstOfStream = true;
    source = new EventSource(WORKLIST_EVENTS_URL[generation]);
    source.onopen = () => {
      firstOfStream = true;
      pause = MIN_PAUSE_MS;
    };
    source.onmessage = (event) => {
      const novos = (JSON.parse(event.data) as { novos?: unknown }).novos;
      if (typeof novos !== 'number') return;
      const message = { novos, first: firstOfStream };
      firstOfStream = false;
      channel?.postMessage(message);
      show(message);
    };
    // The user's newer page took this stream's place (past the server's per-user cap): this page keeps
    // what it shows and stays closed until reloaded — reconnecting would take the newer one's place back.
    source.addEventListener('substituida', () => source?.close());
    source.onerror = () => {
      // CONNECTING: the browser reconnects by itself (the server's `retry`); CLOSED: it gave up (401, 429, 503).
      if (source?.readyState !== EventSource.CLOSED) return;
      source.close();
      retry = setTimeout(connect, pause + Math.random() * pause * 0.5);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    };
  }

  if (channel) channel.onmessage = (event: MessageEvent<CountMessage>) => show(event.data);
  if (navigator.locks) {
    void navigator.locks.request(name, () => {
      if (stopped) return undefined;
      connect();
      // Held while this tab lives: its closing hands the stream to another tab.
      return new Promise<void>((done) => (release = done));
    });
  } else connect();

  return () => {
    stopped = true;
    source?.close();
    clearTimeout(retry);
    release?.();
    channel?.close();
  };
}

/** How to find the focused element again in the new content: its id, or its link or field name. */
function selectorOf(element: HTMLElement): string | undefined {
  if (element.id) return `#${CSS.escape(element.id)}`;
  const href = element.getAttribute('href');
  if (href) return `${element.tagName.toLowerCase()}[href="${CSS.escape(href)}"]`;
  const name = element.getAttribute('name');
  return name ? `[name="${CSS.escape(name)}"]` : undefined;
}

function announce(text: string) {
  const region = document.querySelector('[data-worklist-announcer]');
  if (!region) return;
  // Emptied first, so the same text twice is announced twice.
  region.textContent = '';
  setTimeout(() => (region.textContent = text), 50);
}
