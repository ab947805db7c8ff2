/**
 * GET /api/apy (spec 2.4): the report is its inputs, read once (api/yield/apy-reads.ts), put
 * through the pure builder (packages/core/src/yield/apy/apy-report.ts), whose ApyReportSchema is the response's
 * contract. A venue that cannot be read leaves the venue-derived fields null, never guessed.
 */

import type { MarketPeer } from "@kusd/core";
import { type ApyReport, buildApyReport } from "@kusd/core";
import { type ReportContext, reportBlockHash, reportHead } from "../context.js";
import { render } from "../http/rendered.js";
import type { RenderedApy } from "../report-values.js";
import { readApyInputs } from "./apy-reads.js";

export { MIN_RUNWAY_DAYS } from "@kusd/core";
export type { MarketPeer, RenderedApy };

/**
 * The report, rebuilt at most every `venueMaxAgeSeconds` for the same indexed head (its venue
 * reads are the expensive part); `updatedAt` says when it was built. 0: built on every request.
 */
export async function renderApy(ctx: ReportContext, marketPeers: MarketPeer[]): Promise<RenderedApy> {
  const build = async () => {
    const report = await loadApy(ctx, marketPeers);
    return { report, rendered: render(report) };
  };
  if (ctx.venueMaxAgeSeconds === 0) return build();
  const head = await reportHead(ctx);
  const hash = head ? await reportBlockHash(ctx, head.blockNumber) : null;
  return hash ? ctx.caches.apy(`${head!.blockNumber}:${hash}`, build) : build();
}

export async function loadApy(
  ctx: ReportContext,
  marketPeers: MarketPeer[],
  now = Math.floor(Date.now() / 1000),
): Promise<ApyReport> {
  return buildApyReport(await readApyInputs(ctx, now, marketPeers));
}
