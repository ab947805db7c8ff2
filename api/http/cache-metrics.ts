/**
 * Every cache the process keeps, on GET /metrics, read at scrape time: what it holds
 * (`kusd_cache_entries`, and `kusd_cache_bytes` where bytes are measured) and its limit
 * (`kusd_cache_limit{unit}`: entries, or bytes for the caches bounded by bytes). The caches and
 * their limits are the composition's (api/cache-limits.ts); each part that keeps one says so with
 * `watch`.
 */
import { Gauge, type Registry } from "prom-client";
import type { CacheSize, CacheSizes } from "../io/cache-sizes.js";

export type CacheMetrics = {
  /** Adds a source of cache sizes, read at every scrape. */
  watch(sizes: CacheSizes): void;
};

export function registerCacheMetrics(registry: Registry): CacheMetrics {
  const sources: CacheSizes[] = [];
  const now = (): CacheSize[] => sources.flatMap((s) => s());
  const gauge = (name: string, help: string, labelNames: string[], value: (s: CacheSize) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of now()) {
          const v = value(s);
          if (v !== null) this.set(labelNames.length > 1 ? { cache: s.cache, unit: s.unit } : { cache: s.cache }, v);
        }
      },
    });
  gauge("kusd_cache_entries", "Entries a cache of this process holds now", ["cache"], (s) => s.entries);
  gauge(
    "kusd_cache_bytes",
    "Bytes a cache bounded by bytes holds now (rendered bodies, compressed answers, GraphQL results weighed as JSON)",
    ["cache"],
    (s) => s.bytes,
  );
  gauge(
    "kusd_cache_limit",
    "A cache's limit from the configuration (KUSD_CACHE_*), in entries or bytes",
    ["cache", "unit"],
    (s) => s.limit,
  );
  return { watch: (sizes) => sources.push(sizes) };
}
