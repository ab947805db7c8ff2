/**
 * GET /api/euler (or `?block=N`) re-derived from the reader's own RPC: the lending market's vaults
 * and the operator's positions read at the report's block (pinned by its hash) with the service's
 * read plan, the block's time from its header, then the service's own assembler
 * (buildOccupancyReport). The market's vaults and the operator are the network document's, whose
 * digest the report names; every figure is a chain read or arithmetic on them: nothing is declared
 * or rests on the venue.
 */
import { buildOccupancyReport, type LendingOccupancy, LendingOccupancySchema } from "@kusd/core";
import { type LendingVaults, readOccupancy } from "../read-plan/occupancy-reads.js";
import { classifyFigures } from "../rederive/classify.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { isPin, openPinnedChain, parseReport, type ReaderSources, type ReportVerifier } from "./report-verifier.js";

/** The market the reader's network document names, or why this report cannot be about it. */
function marketOf(n: ReaderSources["network"]): LendingVaults {
  const { lendingUSDC, lendingEscrowKUSD } = n.lending;
  if (!lendingUSDC || !lendingEscrowKUSD)
    throw new RederivationError(
      "report_unreadable",
      `the network document names no lending market (lendingUSDC and lendingEscrowKUSD): nothing to read the report's vaults from`,
    );
  return { lendingUSDC: lendingUSDC.address, lendingEscrowKUSD: lendingEscrowKUSD.address };
}

export const lendingOccupancyVerifier: ReportVerifier = {
  report: "lending-occupancy",
  path: "/api/euler",
  async rederive(input, s) {
    const published: LendingOccupancy = parseReport(LendingOccupancySchema, input, "/api/euler");
    const n = s.network;
    const market = marketOf(n);
    const named = [published.market.lendingVault, published.market.escrowVault, published.operatorSupply.account];
    const { block, reader } = await openPinnedChain(published.pins, s, named);
    const reads = await readOccupancy(reader, market, n.reporting.operator, block);
    const network = { chainId: n.chains.base.id, documentSha256: n.documentSha256 };
    const rows = classifyFigures({
      published,
      inputs: reads,
      build: (r) => buildOccupancyReport({ ...r, network }),
      resting: [],
      skip: isPin,
    });
    return { report: "lending-occupancy", block, rows, failedReads: reads.failedReads, checks: [] };
  },
};
