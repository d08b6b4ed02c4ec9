import { useId, useState } from 'react';
import type { VisibleItem } from '../../lib/menu-visibility';

/** Does this item (or one of its children) lead to the current page? */
const leadsTo = (item: VisibleItem, path: string): boolean =>
  (item.href !== undefined && !item.external && (path === item.href || path.startsWith(`${item.href.replace(/\/$/, '')}/`))) ||
  (item.children ?? []).some((child) => leadsTo(child, path));

interface Props {
  items: VisibleItem[];
  currentPath: string;
  onNavigate: () => void;
  level?: number;
}

/**
 * The side menu: links, and groups that expand and collapse (one open per level, highlighted). The
 * group holding the current page starts open.
 */
export function MenuTree({ items, currentPath, onNavigate, level = 0 }: Props) {
  const [expanded, setExpanded] = useState(() => items.find((i) => i.children && leadsTo(i, currentPath))?.id);
  const baseId = useId();
  return (
    // biome-ignore lint/a11y/noRedundantRoles: Safari drops the list role of a list styled without markers
    <ul className={level === 0 ? 'menu' : 'menu submenu'} role="list">
      {items.map((item) => {
        if (!item.children) {
          const current = item.href === currentPath;
          return (
            <li key={item.id}>
              <a
                className="menu-link"
                href={item.href}
                aria-current={current ? 'page' : undefined}
                onClick={onNavigate}
                {...(item.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              >
                {item.title}
                {item.external ? (
                  <span className="external-mark" role="img" aria-label="(abre em nova aba)">
                    ↗
                  </span>
                ) : null}
              </a>
            </li>
          );
        }
        const open = expanded === item.id;
        const panelId = `${baseId}-${item.id}`;
        return (
          <li key={item.id} className={open ? 'menu-group open' : 'menu-group'}>
            <button
              type="button"
              className="menu-group-button"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setExpanded(open ? undefined : item.id)}
            >
              <span>{item.title}</span>
              <span className="chevron" aria-hidden="true">
                {open ? '▴' : '▾'}
              </span>
            </button>
            <div id={panelId} hidden={!open}>
              {item.staging ? (
                <p className="staging-warning" role="note">
                  Módulo em homologação: pode conter dados de teste.
                </p>
              ) : null}
              <MenuTree items={item.children} currentPath={currentPath} onNavigate={onNavigate} level={level + 1} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
