import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { FieldFrame, describedBy } from './Field';

/** Choices of the UI kit: a labelled select, a radio group and a checkbox, with the Field's error placement. */
export interface ChoiceOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  label: string;
  options: readonly ChoiceOption[];
  /** The empty first option ('Selecione'); omit for a select that always has a value. */
  placeholder?: string;
  error?: string;
  hint?: ReactNode;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, placeholder, error, hint, ...select },
  ref,
) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <div className="field-control">
        <select
          {...select}
          ref={ref}
          id={id}
          className="field-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </FieldFrame>
  );
});

export interface RadioGroupProps {
  label: string;
  name: string;
  options: readonly ChoiceOption[];
  value: string;
  onChange(value: string): void;
  error?: string;
  disabled?: boolean;
}

export function RadioGroup({ label, name, options, value, onChange, error, disabled }: RadioGroupProps) {
  const id = useId();
  return (
    <fieldset className="field choice-group" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-erro` : undefined}>
      <legend className="field-label">{label}</legend>
      <div className="choice-options">
        {options.map((o) => (
          <label key={o.value} className="choice">
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              disabled={disabled}
              onChange={() => onChange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-erro`} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string;
}

export const CheckboxField = forwardRef<HTMLInputElement, CheckboxFieldProps>(function CheckboxField({ label, error, ...input }, ref) {
  const id = useId();
  return (
    <div className="field">
      <label className="choice" htmlFor={id}>
        <input
          {...input}
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-erro` : undefined}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p className="field-error" id={`${id}-erro`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
});
