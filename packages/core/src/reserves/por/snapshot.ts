/**
 * What the reserves report is assembled from: every on-chain read at one pinned block (raw
 * integers, each with its reproduction command) and the venue read. The I/O that fills these
 * lives in api/reserves/chain-snapshot.ts; everything here is data.
 */

import type { Address } from "viem";
import type { PsmKey } from "../../network/types.js";
import type { NotDeployedRead } from "../../schema-primitives.js";
import type { FeeSchedule } from "../redemption-routing.js";
import type { VenueBasis } from "./venue-read.js";

/** A raw value and the command that reproduces it, or null when the read failed. */
export type Read<T> = { value: T; command: (field: string) => string } | null;

export { MINTER_ROLE } from "../../network/roles.js";
/** The order every per-PSM list of the report follows. */
export const PSM_KEYS: readonly PsmKey[] = ["psmMint", "psmRetiredMint", "psmRedeemReserve"];

/** Names only: what a PSM does at a block (mint or redeem-only) is read from the chain, see psmRole. */
export const PSM_LABELS: Record<PsmKey, { label: string }> = {
  psmMint: { label: "live mint PSM" },
  psmRetiredMint: { label: "prior mint PSM" },
  psmRedeemReserve: { label: "legacy redeem PSM" },
};

/**
 * A PSM's role at the report's block, from its kUSD MINTER_ROLE read at that block: a fixed text
 * would contradict the chain at a past block (the prior mint PSM minted until its role was revoked).
 */
export function psmRole(key: PsmKey, holdsMinterRole: boolean | null): string {
  if (holdsMinterRole === null) return "unknown at this block: the hasRole(MINTER_ROLE) read did not land";
  if (holdsMinterRole) return "mints kUSD for USDC and redeems: holds kUSD MINTER_ROLE at this block";
  return key === "psmRedeemReserve"
    ? "redeem reserve of the first deployment: redeem-only (no kUSD MINTER_ROLE at this block)"
    : "redeem-only at this block: it does not hold kUSD MINTER_ROLE";
}

export type PsmSnapshot = {
  address: Address;
  usdc: Read<bigint>;
  kusd: Read<bigint>;
  holdsMinterRole: Read<boolean>;
  paused: Read<boolean>;
  /** The fee rule inputs at the block (tiers, flat fee, virtual peg); null when any is unreadable. */
  fees: FeeSchedule | null;
};

export type DepositVaultSnapshot = {
  address: Address;
  /** decimals() of the share token: 21 on both deployed vaults (decimals offset 3 over WETH). */
  shareDecimals: Read<number>;
  totalAssets: Read<bigint>;
  totalSupply: Read<bigint>;
  wethBalance: Read<bigint>;
  offChainAssets: Read<bigint>;
  l1Assets: Read<bigint>;
  hedgingReserve: Read<bigint>;
};

export type StakingVaultSnapshot = {
  address: Address;
  /** decimals() of the share token: 24 on both deployed skUSDs (offset 6 over kUSD's 18). */
  shareDecimals: Read<number>;
  totalAssets: Read<bigint>;
  totalSupply: Read<bigint>;
  kusdBalance: Read<bigint>;
  /** convertToAssets(totalSupply): what every share together can withdraw. */
  redeemable: Read<bigint>;
  /** convertToAssets(10^shareDecimals): kUSD per whole share. */
  assetsPerShare: Read<bigint>;
  /** Shares held by registry-listed accounts, per account. */
  listedShares: { account: Address; shares: Read<bigint> }[];
};

export type HolderSnapshot = { address: Address; usdc: Read<bigint>; weth: Read<bigint> };

export type ChainSnapshot = {
  blockNumber: bigint;
  blockTimestamp: number;
  kusdTotalSupply: Read<bigint>;
  psms: Record<PsmKey, PsmSnapshot>;
  vaultV1: DepositVaultSnapshot;
  vaultV2: DepositVaultSnapshot;
  skUSD: StakingVaultSnapshot;
  skUSDDeprecated: StakingVaultSnapshot;
  insuranceFund: HolderSnapshot;
  treasury: HolderSnapshot;
  multisig: HolderSnapshot & { threshold: Read<bigint>; owners: Read<readonly Address[]> };
  operator: { address: Address; kusd: Read<bigint>; escrowShares: Read<bigint>; escrowKusd: Read<bigint> };
  hedgeWatchOnly: { address: Address; eth: Read<bigint>; weth: Read<bigint> } | null;
  ethUsd: { answer: Read<bigint>; decimals: number; updatedAt: number | null; address: Address } | null;
  failedReads: string[];
  /** Reads of contracts with no code yet at this block: null figures, not failures. */
  notDeployed: NotDeployedRead[];
};

/**
 * The venue side of the report (venue-read.ts: live at the head, recorded at a past block, or
 * none with the reason), and where the venue is. Only the equity enters the figures.
 */
export type VenueRead = VenueBasis & {
  url: string | null;
  account: Address;
  readCommand: string | null;
};
