import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, type Toast } from '../../stores/toasts';

const ICONS: Record<Toast['kind'], string> = { error: '!', success: '✓', info: 'i' };

/**
 * The toasts of `$toasts`, fixed at the top right (SPEC §9). Errors are alerts, the rest polite
 * status messages. Mount one per page; any island raises a toast with `showToast`.
 */
export function Toaster() {
  const toasts = useStore($toasts);
  return (
    <section className="toaster" aria-label="Notificações">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast-icon" aria-hidden="true">
            {ICONS[toast.kind]}
          </span>
          <div className="toast-content">
            <p className="toast-title">{toast.title}</p>
            {toast.text ? <p className="toast-text">{toast.text}</p> : null}
          </div>
          <button type="button" className="toast-close" aria-label="Fechar" onClick={() => dismissToast(toast.id)}>
            <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.5">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </div>
      ))}
    </section>
  );
}

export default Toaster;
