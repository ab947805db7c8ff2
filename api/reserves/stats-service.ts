/**
 * The I/O edge of GET /api/stats: seven balance reads pinned to one block through the read plan a
 * reader re-derives it with (packages/verify/src/read-plan/stats-reads.ts), then the pure builder.
 */
import { buildStats, type Stats } from "@kusd/core";
import { PinnedReader, readStats } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";
import { render } from "../http/rendered.js";
import type { RenderedStats } from "../report-values.js";

export type { RenderedStats };

/** The stats at `at`, kept per block and block hash (every figure is a read pinned to the block). */
export async function renderStats(ctx: ReportContext, at: ReportBlock): Promise<RenderedStats> {
  const header = await reportBlockHeader(ctx, at.blockNumber);
  const build = async () => {
    const stats = await loadStats(ctx, at, header);
    return { stats, rendered: render(stats) };
  };
  return header ? ctx.caches.stats(`${at.blockNumber}:${header.hash}`, build) : build();
}

export async function loadStats(
  ctx: ReportContext,
  at: ReportBlock,
  header: BlockHeader | null = null,
): Promise<Stats> {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const [reads, timestamp] = await Promise.all([readStats(r, n), blockTimestamp(ctx, at.blockNumber, header)]);
  return buildStats({
    blockNumber: at.blockNumber,
    blockTimestamp: timestamp,
    ...reads,
    network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
    blockHash: header?.hash ?? null,
  });
}
