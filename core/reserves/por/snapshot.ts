/**
 * What the reserves report is assembled from: every on-chain read at one pinned block (raw
 * integers, each with its reproduction command) and the venue read. The I/O that fills these
 * lives in api/reserves/chain-snapshot.ts; everything here is data.
 */
import { keccak256, stringToHex, type Address } from "viem";
import type { PsmKey } from "../../network/types.js";
import type { FeeSchedule } from "../redemption-routing.js";

/** A raw value and the command that reproduces it, or null when the read failed. */
export type Read<T> = { value: T; command: (field: string) => string } | null;

export const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));
/** The order every per-PSM list of the report follows. */
export const PSM_KEYS: readonly PsmKey[] = ["psmMint", "psmRetiredMint", "psmRedeemReserve"];

export const PSM_LABELS: Record<PsmKey, { label: string; role: string }> = {
  psmMint: { label: "live mint PSM", role: "mints kUSD for USDC and redeems; holds kUSD MINTER_ROLE" },
  psmRetiredMint: { label: "prior mint PSM (redeem-only)", role: "redeem-only since its MINTER_ROLE was revoked" },
  psmRedeemReserve: { label: "legacy redeem PSM", role: "redeem reserve of the first deployment; redeem-only" },
};

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
};

/**
 * The venue account read, or null with the reason it is unknown. Only the equity enters the
 * report, so only the equity is required of the venue client's account state.
 */
export type VenueRead = { state: { equityUsd: number } | null; reason: string | null; url: string | null; account: Address; readCommand: string | null };
