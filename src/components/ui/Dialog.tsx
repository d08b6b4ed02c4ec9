import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button';

export interface DialogProps {
  /** Shown as a modal (`showModal()`) while true. */
  open: boolean;
  /**
   * The dialog closed itself (Esc, or the close button): set `open` to false. Not called when the
   * parent closes it by setting `open` to false.
   */
  onClose: () => void;
  title: string;
  /** The body; it describes the dialog (aria-describedby). */
  children?: ReactNode;
  /** The action buttons, right-aligned. Give the one that should take focus `data-autofocus`. */
  actions?: ReactNode;
  /** A 'Fechar' button in the corner (default true). */
  closeButton?: boolean;
}

/**
 * An accessible modal on the native `<dialog>`: the browser makes the page behind it inert and
 * closes it on Esc. Focus goes to the element marked `data-autofocus` (else the first focusable
 * one) and back to the element that had it when the dialog closes.
 */
export function Dialog({ open, onClose, title, children, actions, closeButton = true }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const openProp = useRef(open);
  openProp.current = open;
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // A dialog removed while open (its island unmounted) still gives focus back.
  useEffect(() => () => openerRef.current?.focus(), []);

  function handleClose() {
    const opener = openerRef.current;
    openerRef.current = null;
    if (opener?.isConnected) opener.focus();
    if (openProp.current) onCloseRef.current();
  }

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onClose={handleClose}
    >
      <div className="dialog-header">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {closeButton ? (
          <button type="button" className="dialog-close" aria-label="Fechar" onClick={() => dialogRef.current?.close()}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        ) : null}
      </div>
      {children ? (
        <div id={bodyId} className="dialog-body">
          {children}
        </div>
      ) : null}
      {actions ? <div className="dialog-actions">{actions}</div> : null}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  /** 'button' when the cancel button was chosen, 'dismiss' when closed with Esc. */
  onCancel: (reason: 'button' | 'dismiss') => void;
}

/**
 * A yes/no question, e.g. title 'Atenção', text 'Esta ação irá interromper a simulação atual.
 * Deseja iniciar uma nova cotação?', buttons 'sim' and 'não'. The cancel button takes focus, so
 * an Enter pressed out of habit does not interrupt anything; Esc counts as cancel.
 */
export function ConfirmDialog({ open, title, text, confirmLabel, cancelLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={() => onCancel('dismiss')}
      title={title}
      closeButton={false}
      actions={
        <>
          <Button type="button" variant="outline" data-autofocus onClick={() => onCancel('button')}>
            {cancelLabel}
          </Button>
          <Button type="button" variant="primary" onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{text}</p>
    </Dialog>
  );
}
