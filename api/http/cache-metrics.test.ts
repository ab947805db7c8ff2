import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { CacheSize } from "../io/cache-sizes.js";
import { memo } from "../io/memo.js";
import { registerCacheMetrics } from "./cache-metrics.js";

const sample = (text: string, metric: string) =>
  text
    .split("\n")
    .find((l) => l.startsWith(metric))
    ?.split(" ")
    .at(-1);

describe("cache sizes on /metrics", () => {
  it("are read at scrape time from every watched source, bytes only where measured", async () => {
    const registry = new Registry();
    const metrics = registerCacheMetrics(registry);
    const reports = memo<string>({ maxBytes: 1_000, sizeOf: (v) => v.length });
    const blocks = memo<number>({ max: 32 });
    metrics.watch(() => [reports.sizeAs("por_reports"), blocks.sizeAs("por_snapshots")]);
    let fixed: CacheSize = { cache: "indexer_headers", unit: "entries", limit: 256, entries: 0, bytes: null };
    metrics.watch(() => [fixed]);

    let text = await registry.metrics();
    expect(sample(text, 'kusd_cache_entries{cache="por_reports"}')).toBe("0");
    expect(sample(text, 'kusd_cache_limit{cache="por_reports",unit="bytes"}')).toBe("1000");
    expect(sample(text, 'kusd_cache_limit{cache="por_snapshots",unit="entries"}')).toBe("32");

    await reports("12:0xab", async () => "r".repeat(300));
    await blocks("12:0xab", async () => 1);
    await blocks("13:0xcd", async () => 2);
    await Promise.resolve();
    fixed = { ...fixed, entries: 7 };
    text = await registry.metrics();
    expect(sample(text, 'kusd_cache_entries{cache="por_reports"}')).toBe("1");
    expect(sample(text, 'kusd_cache_bytes{cache="por_reports"}')).toBe("300");
    expect(sample(text, 'kusd_cache_entries{cache="por_snapshots"}')).toBe("2");
    expect(sample(text, 'kusd_cache_entries{cache="indexer_headers"}')).toBe("7");
    // An entry-bounded cache's bytes are not measured: no sample rather than a 0.
    expect(text).not.toContain('kusd_cache_bytes{cache="por_snapshots"}');
    expect(text).not.toContain('kusd_cache_bytes{cache="indexer_headers"}');
  });
});
