import { useRef, useState } from 'react';
import { focusFirstError, type FieldErrors } from './form';
import { goTo, type SaveResult } from './quote-api';
import { useStepDraft } from './useStepDraft';

/** What a step form hands over so its unsaved values survive a session that ends mid-form. */
export interface StepDraft<D> {
  /** The form's values as typed (texts, not parsed answers). */
  values(): D;
  restore(values: D): void;
  /** Off for a read-only step: nothing there to restore. */
  enabled: boolean;
}

/**
 * What every step form does on submit: show the browser's own field errors, or save, and then
 * either go to the next step or show the server's refusal beside the same fields. With a `draft`,
 * the values are kept while the save runs and stay kept only when it fails because the session
 * ended — the sign-in then returns to this address, which restores them once (`restored`).
 */
export function useStepForm<D = never>(draft?: StepDraft<D>) {
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const drafts = useStepDraft<D>((values) => draft?.restore(values), Boolean(draft?.enabled));

  async function submit<T>(found: FieldErrors, save: () => Promise<SaveResult<T>>, next: (value: T) => string) {
    setFailure(undefined);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(form.current, found);
    setSubmitting(true);
    if (draft?.enabled) drafts.keep(draft.values());
    const result = await save();
    // The client is already on its way to the login: keep the draft and the busy button, show nothing.
    if (!result.ok && result.sessionEnded) return;
    drafts.drop();
    if (result.ok) return goTo(next(result.value));
    setSubmitting(false);
    setErrors(result.errors);
    setFailure(result.message);
    focusFirstError(form.current, result.errors);
  }

  return { form, errors, failure, submitting, submit, restored: drafts.restored };
}
