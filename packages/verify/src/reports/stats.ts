/**
 * GET /api/stats (or `?block=N`) re-derived from the reader's own RPC: the seven balance reads at
 * the report's block (pinned by its hash) with the service's read plan, then the service's own
 * assembler (buildStats). Every figure is a chain read or arithmetic on them: nothing is declared
 * or rests on the venue.
 */
import { buildStats, type Stats, StatsSchema } from "@kusd/core";
import { readStats } from "../read-plan/stats-reads.js";
import { classifyFigures } from "../rederive/classify.js";
import { isPin, openPinnedChain, parseReport, type ReportVerifier } from "./report-verifier.js";
import { requiredReads } from "./required-reads.js";

export const statsVerifier: ReportVerifier = {
  report: "stats",
  path: "/api/stats",
  async rederive(input, s) {
    const published: Stats = parseReport(StatsSchema, input, "/api/stats");
    const { block, reader } = await openPinnedChain(published.pins, s);
    const n = s.network;
    const reads = await requiredReads(readStats(reader, n), block.number);
    const rows = classifyFigures({
      published,
      inputs: reads,
      build: (i) =>
        buildStats({
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          ...i,
          network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
          blockHash: block.hash,
        }),
      resting: [],
      skip: isPin,
    });
    return { report: "stats", block, rows, failedReads: [], checks: [] };
  },
};
