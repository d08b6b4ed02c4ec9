import { useEffect, useRef, useState } from 'react';
import { dropDraft, keepDraft, takeDraft } from '../../lib/step-drafts';
import { currentAddress as address } from '../../lib/http';

/**
 * The unsaved values of a step form, kept in the tab's sessionStorage under the step's address while
 * a save is under way, and restored once when the same address opens again — which is where the
 * sign-in returns a user whose session ended mid-form (docs/decisions/024-selling-flow.md).
 * `restore` runs after hydration, never during the server render, so both renders agree.
 */
export function useStepDraft<T>(restore: (values: T) => void, enabled = true) {
  const [restored, setRestored] = useState(false);
  const restoreRef = useRef(restore);
  restoreRef.current = restore;

  useEffect(() => {
    if (!enabled) return;
    const values = takeDraft<T>(window.sessionStorage, address());
    if (values === undefined) return;
    restoreRef.current(values);
    setRestored(true);
  }, [enabled]);

  return {
    /** The note above a restored form. */
    restored,
    keep: (values: T) => keepDraft(window.sessionStorage, address(), values),
    drop: () => dropDraft(window.sessionStorage, address()),
  };
}
