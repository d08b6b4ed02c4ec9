/**
 * A job's wake-up line in this process: the job loop listens (server/boot/jobs.ts `wake`), and a
 * commit that queued work for it calls `wake` so the job takes a turn now rather than at its next tick.
 */
export function wakeLine() {
  const listeners = new Set<() => void>();
  return {
    /** Listens; the answer stops listening. */
    listen(wake: () => void): () => void {
      listeners.add(wake);
      return () => listeners.delete(wake);
    },
    wake(): void {
      for (const listener of listeners) listener();
    },
  };
}
