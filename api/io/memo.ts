/**
 * Two ways of not doing the same I/O twice, both with one build per key in flight (concurrent
 * callers wait for the same promise):
 *   - `coalesce`: keeps nothing once the build settles. For reads the spec wants live on every
 *     request: requests that arrive together share one read, the next request reads again.
 *   - `memo`: keeps the result in an LRU bounded by entries (`max`) or, where results vary a lot
 *     in size (rendered report bodies), by bytes (`maxBytes`, each result weighed by `sizeOf` once
 *     it has settled). For what cannot change under its key: a report's inputs at a block, keyed
 *     by the block's hash as well, so a reorg is a different key.
 *     A failed build, or a result `keep` refuses (a snapshot with failed reads), is not kept.
 */
import { LRUCache } from "lru-cache";
import { type CacheSize, lruSize } from "./cache-sizes.js";

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

export type Memo<V> = ((key: string, build: () => Promise<V>) => Promise<V>) & {
  /** Entries held (builds in flight included). */
  readonly size: number;
  /** What it holds against its limit, under `name` on /metrics. */
  sizeAs(name: string): CacheSize;
};

export type MemoOptions<V> = { ttlMs?: number; keep?: (value: V) => boolean } & (
  | { max: number }
  | { maxBytes: number; sizeOf: (value: V) => number }
);

/** A build in flight weighs this much until its result is weighed. */
const IN_FLIGHT_BYTES = 1;

export function memo<V>(options: MemoOptions<V>): Memo<V> {
  const byBytes = "maxBytes" in options;
  const cache = new LRUCache<string, Promise<V>>({
    ...(byBytes ? { maxSize: options.maxBytes, sizeCalculation: () => IN_FLIGHT_BYTES } : { max: options.max }),
    ...(options.ttlMs && { ttl: options.ttlMs }),
  });
  const get = (key: string, build: () => Promise<V>) => {
    const cached = cache.get(key);
    if (cached) return cached;
    const started = build();
    cache.set(key, started);
    started.then(
      (value) => {
        if (cache.peek(key) !== started) return;
        if (options.keep && !options.keep(value)) cache.delete(key);
        else if (byBytes) {
          // Weighed once settled (lru-cache weighs a value again only when it is set anew); a
          // result larger than the whole budget is not kept.
          cache.delete(key);
          cache.set(key, started, { size: Math.max(IN_FLIGHT_BYTES, options.sizeOf(value)) });
        }
      },
      () => {
        if (cache.peek(key) === started) cache.delete(key);
      },
    );
    return started;
  };
  return Object.defineProperties(get, {
    size: { get: () => cache.size },
    sizeAs: { value: (name: string) => lruSize(name, cache) },
  }) as Memo<V>;
}
