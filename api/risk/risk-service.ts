/**
 * The I/O edge of GET /api/risk-status: the chain half read with the shared read plan (the
 * configuration getters, the source-named getter probes, the role holders from the indexed
 * RoleGranted / RoleRevoked), the venue and the statement read now, all at one block.
 */

import { buildRiskStatus, type OffChainInputs, offChainTriggers, type RiskStatus, riskPins } from "@kusd/core";
import { type Address, getAddress, type Hex } from "viem";
import { PinnedReader, RISK_GAP_SOURCE, readRiskChain } from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  blockTimestamp,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
} from "../context.js";
import { roleHoldersAt } from "../io/indexed-reads.js";
import { readVenueNow } from "../io/venue-now.js";
import type { RiskChainPart } from "../report-values.js";

/** The off-chain triggers' inputs, read now: at a past block they are not judged (offChainTriggers knows atHead). */
async function readOffChain(
  ctx: ReportContext,
  at: ReportBlock,
  statementSignedAt: () => Promise<number | null>,
): Promise<{ inputs: OffChainInputs; receivedAtMs: number | null }> {
  const pastBlock = { state: null, reason: "past block: the venue publishes current equity only", readAtMs: null };
  const [venue, signedAt] = await Promise.all([
    at.atHead ? readVenueNow(ctx) : pastBlock,
    statementSignedAt().catch(() => null),
  ]);
  return {
    inputs: {
      atHead: at.atHead,
      venueAccount: ctx.network.reporting.venue.account,
      venue: venue.state ? { equityUsd: venue.state.equityUsd, timeMs: venue.state.time } : null,
      venueReason: venue.reason,
      statementSignedAt: signedAt,
      now: Math.floor(Date.now() / 1000),
    },
    receivedAtMs: venue.state ? venue.readAtMs : null,
  };
}

export type { RiskChainPart };

/**
 * The on-chain part of the risk status at `at` (kept per block and hash: it cannot change there).
 * `header`: the block's header as the caller read it.
 */
export function riskChainPart(ctx: ReportContext, at: ReportBlock, header: BlockHeader | null): Promise<RiskChainPart> {
  const chain = async (): Promise<RiskChainPart> => {
    const reader = new PinnedReader(ctx.base, at.blockNumber, ctx.network.reporting.publicRpc.base);
    const holdersOf = (contract: Address, role: Hex) =>
      roleHoldersAt(ctx.db, contract.toLowerCase() as Address, role, at.blockNumber).then(
        (h) => h.map((x) => getAddress(x.account)),
        () => null,
      );
    const [timestamp, reads] = await Promise.all([
      blockTimestamp(ctx, at.blockNumber, header),
      readRiskChain(reader, ctx.network, holdersOf),
    ]);
    return { ...reads, timestamp };
  };
  return header ? ctx.caches.riskChain(`${at.blockNumber}:${header.hash}`, chain) : chain();
}

export async function loadRiskStatus(
  ctx: ReportContext,
  at: ReportBlock,
  statementSignedAt: () => Promise<number | null>,
): Promise<RiskStatus> {
  const header = await reportBlockHeader(ctx, at.blockNumber);
  // The chain part cannot change at a block (keyed by its hash); the off-chain part is read every time.
  const [c, offChain] = await Promise.all([riskChainPart(ctx, at, header), readOffChain(ctx, at, statementSignedAt)]);
  const n = ctx.network;
  return buildRiskStatus({
    blockNumber: at.blockNumber,
    timestamp: c.timestamp,
    onChain: c.onChain,
    offChain: offChainTriggers(offChain.inputs),
    gaps: c.gaps,
    gapSource: RISK_GAP_SOURCE,
    failedReads: c.failedReads,
    notDeployed: c.notDeployed,
    pins: riskPins({
      base: {
        network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
        block: header && { number: Number(at.blockNumber), hash: header.hash, timestamp: header.timestamp },
      },
      venueUrl: ctx.venue?.url ?? null,
      offChain: offChain.inputs,
      receivedAtMs: offChain.receivedAtMs,
    }),
  });
}
