/**
 * GET /api/psm-status (or `?block=N`) re-derived from the reader's own RPC: every PSM's mint gates
 * at the report's block (pinned by its hash) with the service's read plan, then the service's own
 * assembler (buildPsmStatus). Every gate is a chain read, and readiness and headroom arithmetic on
 * them: nothing is declared or rests on the venue. A read the reader's RPC fails is null, as the
 * service would have published it.
 */
import { buildPsmStatus, type PsmStatus, PsmStatusSchema } from "@kusd/core";
import { readPsmGates } from "../read-plan/psm-gates-reads.js";
import { classifyFigures } from "../rederive/classify.js";
import { isPin, openPinnedChain, parseReport, type ReportVerifier } from "./report-verifier.js";

export const psmStatusVerifier: ReportVerifier = {
  report: "psm-status",
  path: "/api/psm-status",
  async rederive(input, s) {
    const published: PsmStatus = parseReport(PsmStatusSchema, input, "/api/psm-status");
    const named = [published.psm, ...published.psms.map((p) => p.address)];
    const { block, reader } = await openPinnedChain(published.pins, s, named);
    const n = s.network;
    const gates = await readPsmGates(reader, n);
    const at = {
      blockNumber: block.number,
      timestamp: block.timestamp,
      blockHash: block.hash,
      network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
    };
    const rows = classifyFigures({
      published,
      inputs: gates,
      build: (g) => buildPsmStatus(at, g.entries, g.failedReads, g.notDeployed),
      resting: [],
      skip: isPin,
    });
    return { report: "psm-status", block, rows, failedReads: gates.failedReads, checks: [] };
  },
};
