/**
 * GET /api/por/redemption-plan: the transactions that redeem `amount` kUSD at a block. The
 * routing and the report are core's (redemption-routing.ts, redemption-plan-schema.ts); this edge
 * reads the PSMs and has the chain confirm each leg's fee with the PSM's own getFee, through the
 * read plan a reader re-derives it with (packages/verify/src/read-plan/redemption-plan-reads.ts),
 * so a fee rule we misread shows up as a refusal, not as a wrong quote.
 */

import type { RedemptionPlanReport } from "@kusd/core";
import { buildRedemptionPlanReport, feeRuleMismatch } from "@kusd/core";
import { PinnedReader, readRedemptionPlan, snapshotAddresses } from "../../packages/verify/src/index.js";
import { type ReportBlock, type ReportContext, reportBlockHeader } from "../context.js";
import { ApiError } from "../http/errors.js";

/** `amount`: a positive kUSD decimal string, as the route validated it. */
export async function loadRedemptionPlan(
  ctx: ReportContext,
  at: ReportBlock,
  amount: string,
): Promise<RedemptionPlanReport> {
  const n = ctx.network;
  const reader = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const [header, reads] = await Promise.all([
    reportBlockHeader(ctx, at.blockNumber),
    readRedemptionPlan(reader, snapshotAddresses(n), amount),
  ]);
  const mismatch = feeRuleMismatch({ amount, ...reads });
  if (mismatch)
    throw new ApiError(
      "fee_rule_mismatch",
      "a PSM's getFee disagrees with the fee rule this service applies; no plan rather than a wrong one",
      { psm: mismatch.psm, onChain: mismatch.onChain.toString(), expected: mismatch.expected.toString() },
    );
  return buildRedemptionPlanReport({
    blockNumber: at.blockNumber,
    block: header ? { number: Number(at.blockNumber), hash: header.hash, timestamp: header.timestamp } : null,
    network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
    amount,
    usdc: n.usdc.address,
    commandRpcUrl: n.reporting.publicRpc.base,
    ...reads,
  });
}
