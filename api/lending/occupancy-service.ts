/**
 * The I/O edge of /api/euler: the market's reads pinned to one block through the read plan a
 * reader re-derives it with (packages/verify/src/read-plan/occupancy-reads.ts), each raw value
 * with the `cast call … --block N` command that reproduces it. A read that fails is null and
 * listed in failedReads (the report still answers 200); only a network without a lending market
 * is an error (404). The report is assembled from the reads, purely, in packages/core/src/lending/occupancy.ts.
 */

import type { NetworkConfig } from "@kusd/core";
import { buildOccupancyReport, type LendingOccupancy } from "@kusd/core";
import type { Address } from "viem";
import { PinnedReader, readOccupancy } from "../../packages/verify/src/index.js";
import { type ReportContext, reportBlockHeader } from "../context.js";
import { ApiError } from "../http/errors.js";

export type LendingMarket = {
  lendingUSDC: Address;
  lendingEscrowKUSD: Address;
  /** First block at which both vaults exist: earlier blocks have no market to report. */
  startBlock: bigint;
};

export class LendingMarketNotConfiguredError extends ApiError {
  override name = "LendingMarketNotConfiguredError";
  constructor(network: string, missing: string[]) {
    super("lending_market_not_configured", `network ${network} has no isolated lending market configured`, {
      network,
      missing,
    });
  }
}

const MARKET_KEYS = ["lendingUSDC", "lendingEscrowKUSD"] as const;

/** The market's two vaults from the network config; throws LendingMarketNotConfiguredError (404) when either is absent. */
export function lendingMarketOf(network: NetworkConfig): LendingMarket {
  const missing = MARKET_KEYS.filter((k) => !network.lending[k]);
  if (missing.length) throw new LendingMarketNotConfiguredError(network.name, missing);
  const usdc = network.lending.lendingUSDC!;
  const escrow = network.lending.lendingEscrowKUSD!;
  return {
    lendingUSDC: usdc.address,
    lendingEscrowKUSD: escrow.address,
    startBlock: BigInt(Math.max(usdc.startBlock, escrow.startBlock)),
  };
}

/**
 * The /api/euler report at `blockNumber` (already validated by the caller); its time and hash from
 * the block's header, read as every report of the block reads it and shared with them (reportBlockHeader).
 */
export async function loadOccupancy(ctx: ReportContext, blockNumber: bigint): Promise<LendingOccupancy> {
  const n = ctx.network;
  const market = lendingMarketOf(n);
  const reader = new PinnedReader(ctx.base, blockNumber, n.reporting.publicRpc.base);
  const header = await reportBlockHeader(ctx, blockNumber);
  const reads = await readOccupancy(reader, market, n.reporting.operator, header);
  return buildOccupancyReport({ ...reads, network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 } });
}
