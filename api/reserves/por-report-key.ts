/**
 * What a built /api/por report is kept under, beside its block and block hash. At the head, or
 * within reach of a reorg, the report follows the live reads (the RPC's head, the indexed head,
 * the venue read now). At a final block the answer is served `immutable` with a strong ETag
 * (reportCacheControl), so our own cache must keep its bytes too: the attestation's time-of-report
 * fields (rpcChainLength, indexedHead) stay those of the first answer, as any HTTP cache keeps
 * them. Only what would change a figure at the block makes a new report: the live role reads
 * (a failed hasRole is a different, uncached answer) and the venue basis.
 */
import { isFinalBlock } from "../http/rendered.js";

export type PorKeyParts = {
  roles: string;
  rpcChainLength: number | null;
  blockNumber: bigint;
  headBlockNumber: bigint;
  atHead: boolean;
  venueReadAtMs: number | undefined;
  venue: { source: string; ageSeconds: number | null; reason: string | null; statement: string | null | undefined };
};

export function porReportKey(p: PorKeyParts): string {
  const figures = [p.roles, p.venue.source, p.venue.ageSeconds, p.venue.reason, p.venue.statement];
  if (isFinalBlock(p.blockNumber, p.headBlockNumber)) return ["final", ...figures].join("|");
  return [p.rpcChainLength, p.headBlockNumber, p.atHead, p.venueReadAtMs, ...figures].join("|");
}
