/**
 * GET /api/apy (spec 2.4): the report is its inputs, read once (api/yield/apy-inputs.ts), put
 * through the pure builder (core/yield/apy-report.ts), whose ApyReportSchema is the response's
 * contract. A venue that cannot be read leaves the venue-derived fields null, never guessed.
 */
import type { ReportContext } from "../context.js";
import { buildApyReport, type ApyReport } from "../../core/yield/apy-report.js";
import type { MarketPeer } from "../../core/yield/apy-market-context.js";
import { marketPeersFromEnv, readApyInputs } from "./apy-inputs.js";

export { MIN_RUNWAY_DAYS } from "../../core/yield/apy-incentive.js";
export type { MarketPeer };
export { marketPeersFromEnv };

export async function loadApy(ctx: ReportContext, now = Math.floor(Date.now() / 1000), marketPeers: MarketPeer[] = marketPeersFromEnv()): Promise<ApyReport> {
  return buildApyReport(await readApyInputs(ctx, now, marketPeers));
}
