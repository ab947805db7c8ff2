/**
 * The reads behind /api/euler, made the same way by the service and a reader: the lending market's
 * two vaults and the operator's positions in them, all pinned to one block through PinnedReader so
 * each raw value carries the `cast call … --block N` command that reproduces it. A read that fails
 * is null and listed in failedReads. The block's time comes from its header, which the caller has
 * already read (the service's cached header, the reader's block pinned by hash).
 */
import { KUSD_DECIMALS, type OccupancyReads, type Read, USDC_DECIMALS, type VaultReads } from "@kusd/core";
import type { Address, Hex } from "viem";
import { type PinnedReader, type ReadSpec, tolerantReads } from "./pinned-reader.js";

/** The market's two vaults: the USDC vault that lends, and the kUSD escrow vault that holds its collateral. */
export type LendingVaults = { lendingUSDC: Address; lendingEscrowKUSD: Address };

/** Every raw read of the report at the reader's block. Never throws for a failed chain read. */
export async function readOccupancy(
  r: PinnedReader,
  market: LendingVaults,
  operator: Address,
  header: { hash: Hex; timestamp: number } | null,
): Promise<Omit<OccupancyReads, "network">> {
  const { read, failedReads } = tolerantReads(r);
  const u = (to: Address, signature: string, decimals?: number, args?: ReadSpec["args"]) =>
    read<bigint>({ to, signature, args }, decimals);

  function blockTimestamp(): Read<number> {
    if (!header) {
      failedReads.push(`eth_getBlockByNumber ${r.blockNumber}: the block's header could not be read`);
      return null;
    }
    const value = header.timestamp;
    return {
      value,
      command: (field) =>
        `cast block ${r.blockNumber} --field timestamp --rpc-url ${r.commandRpcUrl}  # ${field} = ${value}`,
    };
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
  const timestamp = blockTimestamp();
  const [governor, borrowLtvBps, lending, totalBorrows, cash, interestRate, operatorDebt, escrow] = await Promise.all([
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
    blockHash: header?.hash ?? null,
    operator,
    governor,
    borrowLtvBps,
    lending: { ...lending, totalBorrows, cash, interestRate, operatorDebt },
    escrow,
    failedReads,
  };
}
