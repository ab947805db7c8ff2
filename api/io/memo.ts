/**
 * Two ways of not doing the same I/O twice, both with one build per key in flight (concurrent
 * callers wait for the same promise):
 *   - `coalesce`: keeps nothing once the build settles. For reads the spec wants live on every
 *     request: requests that arrive together share one read, the next request reads again.
 *   - `memo`: keeps the result in an LRU. For what cannot change under its key: a report's
 *     inputs at a block, keyed by the block's hash as well, so a reorg is a different key.
 *     A failed build, or a result `keep` refuses (a snapshot with failed reads), is not kept.
 */
import { LRUCache } from "lru-cache";

export function coalesce<V>(): (key: string, build: () => Promise<V>) => Promise<V> {
  const inFlight = new Map<string, Promise<V>>();
  return (key, build) => {
    const running = inFlight.get(key);
    if (running) return running;
    const started = build().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}

/** One value per object (a report context, a client), made on first use and dropped with the object. */
export function perObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}

export type Memo<V> = ((key: string, build: () => Promise<V>) => Promise<V>) & { readonly size: number };

export function memo<V>(options: { max: number; ttlMs?: number; keep?: (value: V) => boolean }): Memo<V> {
  const cache = new LRUCache<string, Promise<V>>({ max: options.max, ...(options.ttlMs && { ttl: options.ttlMs }) });
  const get = (key: string, build: () => Promise<V>) => {
    const cached = cache.get(key);
    if (cached) return cached;
    const started = build();
    cache.set(key, started);
    started.then(
      (value) => {
        if (options.keep && !options.keep(value) && cache.get(key) === started) cache.delete(key);
      },
      () => {
        if (cache.get(key) === started) cache.delete(key);
      },
    );
    return started;
  };
  return Object.defineProperty(get, "size", { get: () => cache.size }) as Memo<V>;
}
