/**
 * A resource opened the first time it is awaited, not when the service is made. The operator
 * store is one: with PGlite it is a second embedded database in the indexer's process, whose
 * open (its WASM and Postgres's start) and queries run on the thread that indexes. Opened at
 * the service's creation, it held about 150 MB of RSS through every backfill (devnet scale 300:
 * peak 812–841 MB against 663–684 MB; no time saving measurable, docs/benchmarks.md), though
 * nothing needs it before a request asks for a stored statement or the background work begins
 * (background.ts: once the indexer has caught up).
 */
export type OnDemand<T> = {
  /** Awaiting it (or calling then/catch/finally) opens the resource, once. */
  value: Promise<T>;
  /** The open begun so far, or null if nothing has asked for it yet (closing needs no open). */
  begun(): Promise<T> | null;
};

export function openOnDemand<T>(open: () => Promise<T>): OnDemand<T> {
  let opening: Promise<T> | null = null;
  const get = () => {
    opening ??= open();
    return opening;
  };
  // A thenable typed as the promise it stands for: `await`, Promise.all and .then treat it alike.
  const value = {
    // biome-ignore lint/suspicious/noThenProperty: the point of this object is to be awaited
    then: (onFulfilled, onRejected) => get().then(onFulfilled, onRejected),
    catch: (onRejected) => get().catch(onRejected),
    finally: (onFinally) => get().finally(onFinally),
    [Symbol.toStringTag]: "Promise",
  } as Promise<T>;
  return { value, begun: () => opening };
}
