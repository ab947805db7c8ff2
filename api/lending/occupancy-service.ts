/**
 * The reads behind /api/euler, all pinned to one block through PinnedReader so each raw value
 * carries the `cast call … --block N` command that reproduces it. A read that fails is null and
 * listed in failedReads (the report still answers 200); only a network without a lending market
 * is an error (404). The report is assembled from the reads, purely, in packages/core/src/lending/occupancy.ts.
 */

import type { NetworkConfig } from "@kusd/core";
import {
  buildOccupancyReport,
  KUSD_DECIMALS,
  type LendingOccupancy,
  type OccupancyReads,
  USDC_DECIMALS,
  type VaultReads,
} from "@kusd/core";
import type { Address } from "viem";
import {
  ChainReadError,
  PinnedReader,
  type Read,
  type ReadSpec,
  tolerantReads,
} from "../../packages/verify/src/index.js";
import type { ReportContext } from "../context.js";
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

const errorCause = (e: unknown) =>
  e instanceof ChainReadError ? (e.details.cause ?? e.message) : ((e as Error)?.message?.split("\n")[0] ?? String(e));

/** Every raw read of the report at the reader's block. Never throws for a failed chain read. */
export async function readOccupancy(
  r: PinnedReader,
  market: LendingMarket,
  operator: Address,
): Promise<OccupancyReads> {
  const { read, failedReads } = tolerantReads(r);
  const u = (to: Address, signature: string, decimals?: number, args?: ReadSpec["args"]) =>
    read<bigint>({ to, signature, args }, decimals);

  async function blockTimestamp(): Promise<Read<number>> {
    try {
      const block = await r.client.getBlock({ blockNumber: r.blockNumber });
      const value = Number(block.timestamp);
      return {
        value,
        command: (field) =>
          `cast block ${r.blockNumber} --field timestamp --rpc-url ${r.commandRpcUrl}  # ${field} = ${value}`,
      };
    } catch (e) {
      failedReads.push(`eth_getBlockByNumber ${r.blockNumber}: ${errorCause(e)}`);
      return null;
    }
  }

  /** The reads both vaults share; convertToAssets waits for the share balance it converts. */
  async function vault(address: Address, decimals: number): Promise<VaultReads> {
    const [asset, totalAssets, totalShares, operatorShares] = await Promise.all([
      read<Address>({ to: address, signature: "asset()(address)" }),
      u(address, "totalAssets()(uint256)", decimals),
      u(address, "totalSupply()(uint256)", decimals),
      u(address, "balanceOf(address)(uint256)", decimals, [operator]),
    ]);
    const operatorAssets = operatorShares
      ? await u(address, "convertToAssets(uint256)(uint256)", decimals, [operatorShares.value])
      : null;
    return { address, asset, totalAssets, totalShares, operatorShares, operatorAssets };
  }

  const L = market.lendingUSDC;
  const [timestamp, governor, borrowLtvBps, lending, totalBorrows, cash, interestRate, operatorDebt, escrow] =
    await Promise.all([
      blockTimestamp(),
      read<Address>({ to: L, signature: "governorAdmin()(address)" }),
      read<number>({ to: L, signature: "LTVBorrow(address)(uint16)", args: [market.lendingEscrowKUSD] }),
      vault(L, USDC_DECIMALS),
      u(L, "totalBorrows()(uint256)", USDC_DECIMALS),
      u(L, "cash()(uint256)", USDC_DECIMALS),
      u(L, "interestRate()(uint256)", 27),
      u(L, "debtOf(address)(uint256)", USDC_DECIMALS, [operator]),
      vault(market.lendingEscrowKUSD, KUSD_DECIMALS),
    ]);
  return {
    blockNumber: r.blockNumber,
    blockTimestamp: timestamp,
    operator,
    governor,
    borrowLtvBps,
    lending: { ...lending, totalBorrows, cash, interestRate, operatorDebt },
    escrow,
    failedReads,
  };
}

/** The /api/euler report at `blockNumber` (already validated by the caller). */
export async function loadOccupancy(ctx: ReportContext, blockNumber: bigint): Promise<LendingOccupancy> {
  const market = lendingMarketOf(ctx.network);
  const reader = new PinnedReader(ctx.base, blockNumber, ctx.network.reporting.publicRpc.base);
  return buildOccupancyReport(await readOccupancy(reader, market, ctx.network.reporting.operator));
}
