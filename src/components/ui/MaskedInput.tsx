import { forwardRef, useId, type ComponentType, type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { IMaskInput } from 'react-imask';
import type { FactoryOpts, InputMask } from 'imask';
import { MASKS, MASK_INPUT_MODE, type MaskName } from '../../lib/masks';
import { FieldFrame, describedBy } from './Field';

export type { MaskName } from '../../lib/masks';

export interface MaskedInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange' | 'type' | 'children'> {
  label: string;
  /** One of the masks of lib/masks.ts; 'document' is a CPF that becomes a CNPJ as it grows. */
  mask: MaskName;
  error?: string;
  hint?: ReactNode;
  help?: ReactNode;
  /**
   * The field's value, controlled: masked ('R$ 1.234,56', '529.982.247-25') unless `unmask` is
   * set, then unmasked ('1234.56', '52998224725').
   */
  value?: string;
  /** The initial text of an uncontrolled field, read through the mask. */
  defaultValue?: string;
  /** Report (and take) the unmasked value in `value`/`onChange`. */
  unmask?: boolean;
  /** Every accepted change, with the masked and the unmasked value. */
  onAccept?: (value: string, unmasked: string) => void;
  /**
   * Every accepted change with the value alone (masked, or unmasked with `unmask`): the shape of
   * react-hook-form's `Controller` field, so `<Controller render={({ field }) => <MaskedInput {...field} />} />`.
   */
  onChange?: (value: string) => void;
}

/** The props this component hands to IMaskInput. Its own types are a union over every mask kind. */
type IMaskInputLooseProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> &
  FactoryOpts & {
    value?: string;
    unmask?: boolean;
    inputRef?: Ref<HTMLInputElement>;
    onAccept?: (value: string, mask: InputMask<FactoryOpts>) => void;
  };
const MaskInput = IMaskInput as unknown as ComponentType<IMaskInputLooseProps>;

/**
 * A labelled input with one of the SPEC §5 masks (react-imask). The masks take no '|' by
 * construction, and a CPF or CNPJ pasted into 'document' comes out formatted.
 *
 * With react-hook-form use a `Controller` (value/onChange/onBlur/ref): the ref reaches the
 * `<input>`, so `setFocus` and focus-on-error work. The form holds the masked text; the zod schema
 * strips the mask (STYLE: masks are stripped inside the schema).
 */
/**
 * Typing over a fully selected value must replace it. imask cannot delete a pattern's fixed prefix
 * ('R$ '), so it keeps the old number and inserts the new digit before it ('R$ 3100.000,00'):
 * empty the field first, through an input event imask listens to, and let the key land in it.
 */
function replaceWholeSelection(event: KeyboardEvent<HTMLElement>) {
  const input = event.target;
  if (!(input instanceof HTMLInputElement)) return;
  const printable = event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
  if (!printable || input.value === '' || input.selectionStart !== 0 || input.selectionEnd !== input.value.length) return;
  input.value = '';
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

export const MaskedInput = forwardRef<HTMLInputElement, MaskedInputProps>(function MaskedInput(
  { label, mask, error, hint, help, value, defaultValue, unmask = false, onAccept, onChange, inputMode, onKeyDown, ...input },
  ref,
) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} help={help}>
      <div className="field-control" onKeyDownCapture={replaceWholeSelection}>
        <MaskInput
          {...input}
          {...MASKS[mask]}
          id={id}
          className="field-input"
          inputMode={inputMode ?? MASK_INPUT_MODE[mask]}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          value={value}
          defaultValue={defaultValue}
          unmask={unmask}
          inputRef={ref}
          onKeyDown={onKeyDown}
          onAccept={(_value, maskRef) => {
            onAccept?.(maskRef.value, maskRef.unmaskedValue);
            onChange?.(unmask ? maskRef.unmaskedValue : maskRef.value);
          }}
        />
      </div>
    </FieldFrame>
  );
});
