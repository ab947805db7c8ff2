/**
 * Stopping a polling subscription at once. A transport ends a subscription by calling the
 * iterator's `return()` while a `next()` is still pending (graphql-ws on a client's `complete` or
 * a closed socket; yoga when an SSE client goes away). An async generator queues that `return()`
 * until its next `yield`, which a quiet stream may never reach: it would go on polling the
 * database for a client that left. `abortable` answers `return()` by aborting the signal the
 * polling loop waits on, so the loop ends within one database round trip.
 */

/** Resolves after `ms`, or as soon as `signal` aborts. */
export const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

export type Abortable<T> = AsyncIterableIterator<T> & {
  return(): Promise<IteratorResult<T, undefined>>;
  throw(error?: unknown): Promise<IteratorResult<T, undefined>>;
};

/**
 * The items of `start(signal)`; `return()` or `throw()`, or `outer` aborting (the request's
 * signal), aborts `signal`, so a loop that checks it and waits with `pause` ends promptly.
 */
export function abortable<T>(start: (signal: AbortSignal) => AsyncIterator<T>, outer?: AbortSignal): Abortable<T> {
  const controller = new AbortController();
  const stop = () => {
    controller.abort();
    outer?.removeEventListener("abort", stop);
  };
  if (outer?.aborted) stop();
  else outer?.addEventListener("abort", stop, { once: true });
  const inner = start(controller.signal);
  const finished = { done: true, value: undefined } as const;
  const it: Abortable<T> = {
    async next() {
      const result = await inner.next();
      if (result.done) stop();
      return result.done ? finished : result;
    },
    async return() {
      stop();
      await inner.return?.();
      return finished;
    },
    async throw(error?: unknown) {
      stop();
      await inner.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
