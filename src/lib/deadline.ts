/**
 * `work`, or the error `failure()` makes once `ms` pass without it settling; the timer never outlives
 * the race. `work` itself goes on (a promise cannot be stopped): the caller only stops waiting for it.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, failure: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
