import { useRef, useState } from 'react';
import { focusFirstError, type FieldErrors } from './form';
import { goTo, type SaveResult } from './quote-api';

/**
 * What every step form does on submit: show the browser's own field errors, or save, and then
 * either go to the next step or show the server's refusal beside the same fields.
 */
export function useStepForm() {
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  async function submit<T>(found: FieldErrors, save: () => Promise<SaveResult<T>>, next: (value: T) => string) {
    setFailure(undefined);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(form.current, found);
    setSubmitting(true);
    const result = await save();
    if (result.ok) return goTo(next(result.value));
    setSubmitting(false);
    setErrors(result.errors);
    setFailure(result.message);
    focusFirstError(form.current, result.errors);
  }

  return { form, errors, failure, submitting, submit };
}
