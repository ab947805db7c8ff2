import { readServiceEnv } from "@kusd/config";
import { describe, expect, it } from "vitest";
import { cacheLimits, DEFAULT_CACHE_LIMITS } from "./cache-limits.js";
import { createReportCaches } from "./report-caches.js";

describe("cache limits", () => {
  it("come from KUSD_CACHE_* (MB as bytes), the defaults where unset", () => {
    expect(cacheLimits(readServiceEnv({}))).toEqual(DEFAULT_CACHE_LIMITS);
    const set = cacheLimits(
      readServiceEnv({ KUSD_CACHE_BLOCKS: "4", KUSD_CACHE_REPORTS_MB: "2", KUSD_CACHE_GRAPHQL_DOCUMENTS: "10" }),
    );
    expect(set).toEqual({ ...DEFAULT_CACHE_LIMITS, blocks: 4, reportBytes: 2 * 1024 * 1024, graphqlDocuments: 10 });
    expect(() => readServiceEnv({ KUSD_CACHE_BLOCKS: "0" })).toThrow(/KUSD_CACHE_BLOCKS/);
  });

  it("bound the reports' caches, each named with its limit and unit", async () => {
    const caches = createReportCaches({
      headFreshMs: 4_000,
      venueMaxAgeSeconds: 5,
      limits: { ...DEFAULT_CACHE_LIMITS, blocks: 2, reportBytes: 1_000 },
    });
    for (const block of ["1", "2", "3"]) await caches.por.snapshots(block, async () => ({ failedReads: [] }) as never);
    const body = "b".repeat(200);
    await caches.stats("1", async () => ({ stats: {}, rendered: { body, bytes: Buffer.from(body) } }) as never);
    await Promise.resolve();
    const byName = Object.fromEntries(caches.sizes().map((s) => [s.cache, s]));
    expect(byName.por_snapshots).toEqual({
      cache: "por_snapshots",
      unit: "entries",
      limit: 2,
      entries: 2,
      bytes: null,
    });
    expect(byName.stats_reports).toEqual({
      cache: "stats_reports",
      unit: "bytes",
      limit: 1_000,
      entries: 1,
      bytes: 400,
    });
    expect(byName.block_headers).toMatchObject({ unit: "entries", limit: DEFAULT_CACHE_LIMITS.headers });
    expect(byName.report_head).toMatchObject({ limit: 1 });
  });
});
