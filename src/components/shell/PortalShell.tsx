import { useEffect, useRef, useState } from 'react';
import type { VisibleItem } from '../../lib/menu-visibility';
import { MenuTree } from './MenuTree';
import { ChatLink } from './ChatLink';
import { NewSimulationButton } from './NewSimulationButton';
import { Toaster } from '../ui/Toaster';
import { bellLabel, countText } from '../../lib/worklist-bell';
import { startLiveWorklist } from './live-worklist';
import './shell.css';

export interface ShellProps {
  generation: 'v1' | 'v2';
  userName: string;
  /** Legacy only: the drawer shows the last access (SPEC §2). */
  lastAccess?: string;
  homeHref: string;
  profileHref: string;
  menu: VisibleItem[];
  currentPath: string;
  /** On simulator pages: where a new simulation starts and, when allowed, the history link. */
  simulator?: { startHref: string; historyHref?: string };
  contacts: { centralAtendimento: string; chatWhatsapp: string };
  /**
   * The worklist's bell (issue 31): the worklist page and how many items are new — given by the pages
   * that read the worklist; elsewhere the live stream brings it once the page is up.
   */
  worklist?: { count?: number; href: string };
}

/** 'Eduarda Lima' → 'EL': the profile link's face on narrow screens. */
const initialsOf = (name: string) => {
  const words = name.split(/\s+/).filter(Boolean);
  return [words[0], words.length > 1 ? words[words.length - 1] : undefined]
    .map((w) => w?.[0] ?? '')
    .join('')
    .toUpperCase();
};

/**
 * The signed-in portal's one island: the header bar (menu button, simulator actions), the drawer
 * with the user and the side menu, the floating chat link and the toasts.
 */
export default function PortalShell(props: ShellProps) {
  const { generation, userName, lastAccess, homeHref, profileHref, menu, currentPath, simulator, contacts, worklist } = props;
  const drawer = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  const openDrawer = () => {
    drawer.current?.showModal();
    setOpen(true);
  };
  const closeDrawer = () => drawer.current?.close();

  // A page restored from the back/forward cache must not come back with the drawer open.
  useEffect(() => {
    const onShow = () => drawer.current?.close();
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  // The bell's count and the page's worklist follow the database while the page is open (issue 31).
  const [count, setCount] = useState(worklist?.count);
  // Whether the stream has spoken since the page came: the count is the database's now, not the render's.
  const [heard, setHeard] = useState(false);
  const live = Boolean(worklist);
  const initialCount = worklist?.count;
  useEffect(
    () =>
      live
        ? startLiveWorklist(generation, initialCount, (novos) => {
            setCount(novos);
            setHeard(true);
          })
        : undefined,
    [generation, live, initialCount],
  );
  const bellName = count === undefined ? 'Pendências' : bellLabel(count);

  return (
    <>
      <div className={simulator ? 'shell-bar shell-bar-simulator' : 'shell-bar'}>
        <button
          type="button"
          className="menu-button"
          aria-label="Abrir menu"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={openDrawer}
        >
          <svg
            width="26"
            height="26"
            viewBox="0 0 24 24"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinecap="round"
          >
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </button>
        <a className="shell-brand" href={homeHref}>
          Portal de Parceiros
        </a>
        {worklist ? (
          // A plain link (works without script); the live stream keeps its count.
          <a
            className={count ? 'worklist-bell worklist-bell-new' : 'worklist-bell'}
            href={worklist.href}
            title={bellName}
            data-worklist-live={heard ? '' : undefined}
          >
            <span className="visually-hidden" data-worklist-label>
              {bellName}
            </span>
            <svg
              width="24"
              height="24"
              viewBox="0 0 24 24"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
              <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
            </svg>
            <span className="worklist-bell-count" data-worklist-count={count} aria-hidden="true" hidden={!count}>
              {count ? countText(count) : ''}
            </span>
          </a>
        ) : null}
        {simulator ? (
          <nav className="simulator-actions" aria-label="Simulação">
            <NewSimulationButton startHref={simulator.startHref} />
            {simulator.historyHref ? (
              <a className="button button-outline button-small" href={simulator.historyHref}>
                Histórico
              </a>
            ) : null}
            <a className="profile-link" href={profileHref}>
              <span className="profile-initials" aria-hidden="true">
                {initialsOf(userName)}
              </span>
              <span className="profile-name">{userName}</span>
            </a>
          </nav>
        ) : null}
        <p className="visually-hidden" aria-live="polite" data-worklist-announcer="" />
      </div>

      {/* A click on the backdrop (the dialog itself, outside its panel) closes it; the keyboard has Esc. */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes a modal <dialog> natively */}
      <dialog
        ref={drawer}
        className="drawer"
        aria-label="Menu principal"
        onClose={() => setOpen(false)}
        onClick={(event) => event.target === drawer.current && closeDrawer()}
      >
        <div className="drawer-panel">
          <div className="drawer-head">
            <div>
              <p className="drawer-user">{userName}</p>
              {generation === 'v1' && lastAccess ? <p className="drawer-last-access">Último acesso: {lastAccess}</p> : null}
            </div>
            <button type="button" className="drawer-close" aria-label="Fechar menu" onClick={closeDrawer}>
              ×
            </button>
          </div>
          <div className="drawer-actions">
            <a className="button button-secondary button-small" href={profileHref} onClick={closeDrawer}>
              Ver perfil
            </a>
            {worklist ? (
              // Its name is what it shows — "Pendências 3" — and then "novas" for a screen reader.
              <a className="button button-outline button-small drawer-worklist" href={worklist.href}>
                Pendências
                <span className="worklist-bell-count" data-worklist-count={count} hidden={!count}>
                  {count ? countText(count) : ''}
                </span>
                {count ? <span className="visually-hidden">{count === 1 ? ' nova' : ' novas'}</span> : null}
              </a>
            ) : null}
            <form method="post" action="/sair">
              <input type="hidden" name="geracao" value={generation} />
              <button type="submit" className="button button-outline button-small">
                Sair
              </button>
            </form>
          </div>
          <nav aria-label="Menu">
            <MenuTree items={menu} currentPath={currentPath} onNavigate={closeDrawer} />
          </nav>
        </div>
      </dialog>

      <ChatLink {...contacts} />
      <Toaster />
    </>
  );
}
