import { useId, type TextareaHTMLAttributes } from 'react';
import { describedBy, FieldFrame } from './Field';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string;
  hint?: string;
}

/** A labelled multi-line text field, with its hint and error read by screen readers. */
export function TextAreaField({ label, error, hint, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <div className="field-control">
        <textarea
          rows={3}
          {...textarea}
          id={id}
          className="field-input field-textarea"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
        />
      </div>
    </FieldFrame>
  );
}
