/**
 * GET /api/por/redemption-plan?amount=N (or `&block=N`) re-derived from the reader's own RPC: the
 * PSMs' reserves, pauses and fee schedules at the report's block (pinned by its hash), the plan
 * routed for the amount the report names, and each leg's getFee asked of the PSM, with the
 * service's read plan; then the service's own assembler (buildRedemptionPlanReport). The amount is
 * the request the plan answers, taken from the report, not a figure; every other figure is a chain
 * read or arithmetic on them: nothing is declared or rests on the venue.
 */
import {
  buildRedemptionPlanReport,
  feeRuleMismatch,
  type RedemptionPlanReport,
  RedemptionPlanSchema,
  redemptionAmountWei,
} from "@kusd/core";
import { snapshotAddresses } from "../read-plan/addresses.js";
import { readRedemptionPlan } from "../read-plan/redemption-plan-reads.js";
import { classifyFigures } from "../rederive/classify.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { isPin, openPinnedChain, parseReport, type ReportVerifier } from "./report-verifier.js";
import { requiredReads } from "./required-reads.js";

function isPositiveAmount(amount: string): boolean {
  try {
    return redemptionAmountWei(amount) > 0n;
  } catch {
    return false;
  }
}

export const redemptionPlanVerifier: ReportVerifier = {
  report: "redemption-plan",
  path: "/api/por/redemption-plan",
  async rederive(input, s) {
    const published: RedemptionPlanReport = parseReport(RedemptionPlanSchema, input, "/api/por/redemption-plan");
    const amount = published.amountKUSD;
    if (!isPositiveAmount(amount))
      throw new RederivationError(
        "report_unreadable",
        `the report's amountKUSD ${JSON.stringify(amount)} is not a positive kUSD amount: no plan answers it`,
      );
    const { block, reader } = await openPinnedChain(
      published.pins,
      s,
      published.transactions.map((t) => t.to),
    );
    const n = s.network;
    const reads = await requiredReads(readRedemptionPlan(reader, snapshotAddresses(n), amount), block.number);
    const rows = classifyFigures({
      published,
      inputs: reads,
      build: (r) =>
        buildRedemptionPlanReport({
          blockNumber: block.number,
          block: { number: Number(block.number), hash: block.hash, timestamp: block.timestamp },
          network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
          amount,
          usdc: n.usdc.address,
          commandRpcUrl: n.reporting.publicRpc.base,
          ...r,
        }),
      resting: [],
      skip: (f) => isPin(f) || f === "amountKUSD",
    });
    const mismatch = feeRuleMismatch({ amount, ...reads });
    return {
      report: "redemption-plan",
      block,
      rows,
      failedReads: [],
      checks: [
        {
          name: "getFee",
          ok: mismatch === null,
          detail: mismatch
            ? `the PSM ${mismatch.psm} quotes getFee ${mismatch.onChain} where the fee rule gives ${mismatch.expected}: the service would have refused this plan`
            : `each of the ${reads.getFees.length} legs' fee for ${amount} kUSD is the PSM's own getFee at block ${block.number}`,
        },
      ],
    };
  },
};
