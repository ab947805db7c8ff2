/**
 * What a cache holds and may hold, read when /metrics is scraped (http/cache-metrics.ts): its
 * entries, its bytes where they are measured, and its limit in the unit it is bounded by.
 */
import type { LRUCache } from "lru-cache";

export type CacheSize = {
  /** The cache's name on /metrics (`kusd_cache_entries{cache}`). */
  cache: string;
  /** What `limit` counts: entries, or bytes where entries vary a lot (rendered bodies). */
  unit: "entries" | "bytes";
  limit: number;
  entries: number;
  /** Bytes held, where measured (a cache bounded by bytes); null: not measured. */
  bytes: number | null;
};

/** Where a composition reads its caches' sizes from. */
export type CacheSizes = () => CacheSize[];

/** An lru-cache's size: bounded by bytes when it has a `maxSize`, else by entries. */
export function lruSize<V extends {}>(cache: string, lru: LRUCache<string, V>): CacheSize {
  return lru.maxSize > 0
    ? { cache, unit: "bytes", limit: lru.maxSize, entries: lru.size, bytes: lru.calculatedSize }
    : { cache, unit: "entries", limit: lru.max, entries: lru.size, bytes: null };
}
