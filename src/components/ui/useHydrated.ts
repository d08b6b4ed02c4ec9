import { useEffect, useState } from 'react';

/**
 * False in the server's render and until the island has run in the browser, then true: a control that
 * only works with the island's script is disabled (or absent) until then, so a click that lands before
 * the script arrives is not silently lost (issue 27).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
