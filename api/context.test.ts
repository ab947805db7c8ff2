/**
 * resolveReportBlock against a kept head that trails the indexer: a block the indexer has reached
 * since the head was kept is answered, not refused; one past the indexer is still 422.
 */
import { describe, expect, it } from "vitest";
import { type ReportContext, resolveReportBlock } from "./context.js";
import { ApiError } from "./http/errors.js";
import { createReportCaches } from "./report-caches.js";

/** Ponder's checkpoint string: timestamp (10 digits) … block number at characters 26..42. */
const checkpoint = (block: bigint) =>
  `${"1700000000"}${"0".repeat(16)}${block.toString().padStart(16, "0")}${"0".repeat(33)}`;

function contextOver(indexed: { block: bigint }): ReportContext {
  const db = {
    execute: async () => [{ chain_id: 8453, latest_checkpoint: checkpoint(indexed.block) }],
  };
  const caches = createReportCaches({ headFreshMs: 60_000, venueMaxAgeSeconds: 0 });
  return { db, headFreshMs: 60_000, caches, network: { kUSD: { startBlock: 1 } } } as unknown as ReportContext;
}

describe("resolveReportBlock", () => {
  it("answers a block indexed after the kept head was read, and refuses one past the indexer", async () => {
    const indexed = { block: 100n };
    const ctx = contextOver(indexed);
    expect((await resolveReportBlock(ctx, undefined)).blockNumber).toBe(100n);
    indexed.block = 105n; // the indexer moves on; the kept head still says 100 for a minute
    expect((await resolveReportBlock(ctx, undefined)).blockNumber).toBe(100n);
    const asked = await resolveReportBlock(ctx, "105");
    expect(asked).toMatchObject({ blockNumber: 105n, atHead: true });
    const refused = await resolveReportBlock(ctx, "106").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: "block_not_indexed", details: { indexedHead: 105 } });
  });
});
