import { forwardRef, useId, useState, type ClipboardEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { formatPastedDocument, pasteDocumentMask } from '../../lib/masks';

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Help text shown in a popover beside the label (SPEC §2: beside Login and Senha). */
  help?: ReactNode;
  /**
   * SPEC §5: a CPF or CNPJ pasted into a text field is formatted (999.999.999-99,
   * 99.999.999/9999-99). On by default for text fields; turn it off where 11 or 14 digits mean
   * something else (RENAVAM, CNH).
   */
  formatPastedDocuments?: boolean;
  /**
   * Say "Limite de N caracteres atingido" when the text reaches maxLength (the browser cuts the rest
   * without a word). Off where filling the field up is the point — a 6-digit code — so a right
   * answer does not read like an error.
   */
  announceLimit?: boolean;
}

/** SPEC §5: every non-password input drops the '|' character. */
export const stripPipes = (value: string) => value.replace(/\|/g, '');

const TEXT_TYPES = new Set([undefined, '', 'text', 'search']);

/**
 * Replaces the selection with the formatted CPF/CNPJ when the pasted text is one, then fires an
 * `input` event so React's onChange (and react-hook-form's register) see the new value.
 */
export function pasteFormattedDocument(event: ClipboardEvent<HTMLInputElement>): void {
  const input = event.currentTarget;
  const text = event.clipboardData.getData('text');
  if (!pasteDocumentMask(text)) return;
  const formatted = formatPastedDocument(text);
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  if (input.maxLength > 0 && input.value.length - (end - start) + formatted.length > input.maxLength) return;
  event.preventDefault();
  input.setRangeText(formatted, start, end, 'end');
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function HelpPopover({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <>
      <button type="button" className="help-button" popoverTarget={id} aria-label={`Ajuda: ${label}`}>
        ?
      </button>
      <div id={id} popover="auto" className="help-popover" role="tooltip">
        {children}
      </div>
    </>
  );
}

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  help?: ReactNode;
  children: ReactNode;
}

/** Label, help popover, hint and error around a control whose id is `id` (see `describedBy`). */
export function FieldFrame({ id, label, error, hint, help, children }: FieldFrameProps) {
  return (
    <div className="field">
      <span className="field-label">
        <label htmlFor={id}>{label}</label>
        {help ? (
          <HelpPopover id={`${id}-ajuda`} label={label}>
            {help}
          </HelpPopover>
        ) : null}
      </span>
      {children}
      {hint ? (
        <div className="field-hint" id={`${id}-dica`}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-erro`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The aria-describedby of a FieldFrame's control: its error and hint, when shown. */
export const describedBy = (id: string, error?: string, hint?: ReactNode) =>
  [error ? `${id}-erro` : '', hint ? `${id}-dica` : ''].filter(Boolean).join(' ') || undefined;

export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field(
  { label, error, hint, help, onChange, onPaste, formatPastedDocuments = true, announceLimit = true, ...input },
  ref,
) {
  const id = useId();
  const formatsDocuments = formatPastedDocuments && TEXT_TYPES.has(input.type);
  // The browser cuts typed and pasted text at maxLength without a word: say so when it does.
  const [full, setFull] = useState(false);
  const limit = announceLimit ? input.maxLength : undefined;
  const shownHint =
    full && limit ? (
      <>
        {hint ? <>{hint} </> : null}Limite de {limit} caracteres atingido.
      </>
    ) : (
      hint
    );
  return (
    <FieldFrame id={id} label={label} error={error} hint={shownHint} help={help}>
      <div className="field-control">
        <input
          {...input}
          ref={ref}
          id={id}
          className="field-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, shownHint)}
          onChange={(event) => {
            const clean = stripPipes(event.target.value);
            if (clean !== event.target.value) event.target.value = clean;
            setFull(limit !== undefined && limit > 0 && clean.length >= limit);
            onChange?.(event);
          }}
          onPaste={(event) => {
            onPaste?.(event);
            if (formatsDocuments && !event.defaultPrevented) pasteFormattedDocument(event);
          }}
        />
      </div>
    </FieldFrame>
  );
});

/** A password input whose text shows while the eye is held and hides when released or left (SPEC §4). */
export const PasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, 'type' | 'formatPastedDocuments'>>(function PasswordField(
  { label, error, hint, help, ...input },
  ref,
) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  const show = () => setVisible(true);
  const hide = () => setVisible(false);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} help={help}>
      <div className="field-control">
        <input
          {...input}
          ref={ref}
          id={id}
          type={visible ? 'text' : 'password'}
          className="field-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
        />
        <button
          type="button"
          className="eye"
          aria-label="Mostrar senha enquanto pressionado"
          aria-pressed={visible}
          onPointerDown={show}
          onPointerUp={hide}
          onPointerLeave={hide}
          onPointerCancel={hide}
          onKeyDown={(e) => {
            if (e.key !== ' ' && e.key !== 'Enter') return;
            e.preventDefault();
            show();
          }}
          onKeyUp={hide}
          onBlur={hide}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
            <circle cx="12" cy="12" r="3" />
            {visible ? null : <path d="M3 3l18 18" />}
          </svg>
        </button>
      </div>
    </FieldFrame>
  );
});
