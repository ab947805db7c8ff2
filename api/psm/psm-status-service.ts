/**
 * The I/O edge of GET /api/psm-status: each PSM's mint gates read at one block through the read
 * plan a reader re-derives it with (packages/verify/src/read-plan/psm-gates-reads.ts), then the
 * pure builder.
 */

import { buildPsmStatus, type PsmStatus } from "@kusd/core";
import { PinnedReader, readPsmGates } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";

// A block's gates cannot change (keyed by its hash, so a reorg is read afresh); a document with a
// failed read is never kept, so the next request retries it (ctx.caches.psmStatus).

/** The gates at `at`; `known`: the block's header when the caller read it already. */
export async function loadPsmStatus(
  ctx: ReportContext,
  at: ReportBlock,
  known?: BlockHeader | null,
): Promise<PsmStatus> {
  const header = known === undefined ? await reportBlockHeader(ctx, at.blockNumber) : known;
  return header
    ? ctx.caches.psmStatus(`${at.blockNumber}:${header.hash}`, () => readPsmStatus(ctx, at, header))
    : readPsmStatus(ctx, at, null);
}

async function readPsmStatus(ctx: ReportContext, at: ReportBlock, header: BlockHeader | null): Promise<PsmStatus> {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const [timestamp, gates] = await Promise.all([blockTimestamp(ctx, at.blockNumber, header), readPsmGates(r, n)]);
  return buildPsmStatus(
    {
      blockNumber: at.blockNumber,
      timestamp,
      blockHash: header?.hash ?? null,
      network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
    },
    gates.entries,
    gates.failedReads,
    gates.notDeployed,
  );
}
