/**
 * /api/euler: occupancy of the operator's isolated lending market (an Euler v2 / EVK market of
 * two vaults: a USDC vault that lends against a kUSD escrow vault that only holds collateral).
 * Pure: raw integers from pinned reads in, the report out. A read that failed is `null` and
 * every figure derived from it is `null`, never a guess.
 */
import type { Address } from "viem";
import { pct } from "../../core/reserves/solvency.js";
import { isoTime, toUnits } from "../../core/reserves/units.js";

export const USDC_DECIMALS = 6;
export const KUSD_DECIMALS = 18;
/** EVK rates are per second, scaled by 1e27 (ray). */
export const RAY = 10n ** 27n;
export const SECONDS_PER_YEAR = 365n * 24n * 60n * 60n;
const SCALE = 10n ** 18n;

/** A raw value and its reproduction command (annotated with the report field it feeds), or null when the read failed. */
export type { Read } from "../chain/pinned-reader.js";
import type { Read } from "../chain/pinned-reader.js";

export type VaultReads = {
  address: Address;
  asset: Read<Address>;
  totalAssets: Read<bigint>;
  /** ERC-4626 share supply (totalSupply()). */
  totalShares: Read<bigint>;
  /** balanceOf(operator): the operator's shares of the vault. */
  operatorShares: Read<bigint>;
  /** convertToAssets(operatorShares): what those shares withdraw at this block. */
  operatorAssets: Read<bigint>;
};

export type LendingVaultReads = VaultReads & {
  totalBorrows: Read<bigint>;
  cash: Read<bigint>;
  /** interestRate(): per-second borrow rate, ray-scaled. */
  interestRate: Read<bigint>;
  /** debtOf(operator): what the operator itself borrows from the market. */
  operatorDebt: Read<bigint>;
};

export type OccupancyReads = {
  blockNumber: bigint;
  /** Null when the block header could not be read. */
  blockTimestamp: Read<number>;
  operator: Address;
  /** governorAdmin() of the lending vault: who can change the market's parameters. */
  governor: Read<Address>;
  /** LTVBorrow(escrow vault) of the lending vault, in basis points. */
  borrowLtvBps: Read<number>;
  lending: LendingVaultReads;
  escrow: VaultReads;
  failedReads: string[];
};

/**
 * n / d computed on the raw integers (exact to 1e-18 before the one conversion to a double), so
 * 18-decimal amounts lose nothing to float rounding first. Null when d is 0: an empty vault has
 * no utilization (not NaN, not 0) and nobody holds a share of nothing.
 */
export function fraction(n: bigint | null, d: bigint | null): number | null {
  if (n === null || d === null || d === 0n) return null;
  return Number((n * SCALE) / d) / 1e18;
}

/** Utilization = totalBorrows / totalAssets (totalAssets = cash + totalBorrows in an EVK vault). */
export const utilization = (totalBorrows: bigint | null, totalAssets: bigint | null) => fraction(totalBorrows, totalAssets);

/**
 * Borrow APR as a fraction: the per-second ray rate × seconds per year. Simple, not compounded:
 * it is what interestRate() states; the accrued APY is slightly higher and depends on how often
 * the vault accrues.
 */
export function borrowApr(ratePerSecondRay: bigint | null): number | null {
  return ratePerSecondRay === null ? null : fraction(ratePerSecondRay * SECONDS_PER_YEAR, RAY);
}

const units = (raw: bigint | null, decimals: number) => (raw === null ? null : toUnits(raw, decimals));
const str = (raw: bigint | null) => (raw === null ? null : raw.toString());

export type OccupancyReport = ReturnType<typeof buildOccupancyReport>;

export const METHODOLOGY =
  "Every figure is an eth_call pinned to blockNumber; each raw read has a `cast call … --block N` command in verifyVia, annotated with the field it feeds and the raw value. " +
  "Lending vault (USDC): totalSupplyUSDC = totalAssets() (= cash() + totalBorrows()); utilization = totalBorrows / totalAssets, null when totalAssets is 0; " +
  "borrowAPR = interestRate() (per second, 1e27-scaled) × 31,536,000 s, simple, not compounded. " +
  "The operator's supply = convertToAssets(balanceOf(operator)) on the lending vault; shareOfSupply = that / totalAssets. " +
  "Escrow vault (kUSD, collateral only, lends nothing): totalEscrowedKUSD = totalAssets(); the operator's escrow = convertToAssets(balanceOf(operator)); its share = that / totalAssets. " +
  "Fractions are computed on the raw integers; the …Pct strings round them to two decimals. A read that fails is null and listed in failedReads, never guessed.";

export function buildOccupancyReport(r: OccupancyReads) {
  const verifyVia: string[] = [];
  /** The read's value, recording its reproduction command under the report field it feeds. */
  const use = <T>(read: Read<T>, field: string): T | null => {
    if (read === null) return null;
    verifyVia.push(read.command(field));
    return read.value;
  };

  const timestamp = use(r.blockTimestamp, "timestamp");
  const governor = use(r.governor, "market.governor");
  const ltvBps = use(r.borrowLtvBps, "market.borrowLTVBps");

  const L = r.lending;
  const lAsset = use(L.asset, "lendingVault.assetAddress");
  const supply = use(L.totalAssets, "lendingVault.totalSupplyUSDCRaw");
  const borrows = use(L.totalBorrows, "lendingVault.totalBorrowsUSDCRaw");
  const cash = use(L.cash, "lendingVault.cashUSDCRaw");
  const lShares = use(L.totalShares, "lendingVault.totalSharesRaw");
  const rate = use(L.interestRate, "lendingVault.interestRatePerSecondRay");
  const opShares = use(L.operatorShares, "operatorSupply.sharesRaw");
  const opSupplied = use(L.operatorAssets, "operatorSupply.suppliedUSDCRaw");
  const opDebt = use(L.operatorDebt, "operatorSupply.debtUSDCRaw");

  const E = r.escrow;
  const eAsset = use(E.asset, "escrowVault.assetAddress");
  const escrowed = use(E.totalAssets, "escrowVault.totalEscrowedKUSDWei");
  const eShares = use(E.totalShares, "escrowVault.totalSharesRaw");
  const opEscrowShares = use(E.operatorShares, "escrowVault.operatorSharesRaw");
  const opEscrowed = use(E.operatorAssets, "escrowVault.operatorEscrowedKUSDWei");

  const util = utilization(borrows, supply);
  const apr = borrowApr(rate);
  const opShare = fraction(opSupplied, supply);
  const opEscrowShare = fraction(opEscrowed, escrowed);
  const ltv = ltvBps === null ? null : ltvBps / 10_000;

  return {
    venue: "euler" as const,
    blockNumber: Number(r.blockNumber),
    timestamp: timestamp === null ? null : isoTime(timestamp),
    market: {
      venue: "euler" as const,
      kind: "EVK isolated market" as const,
      chain: "base" as const,
      lendingVault: L.address,
      escrowVault: E.address,
      governor,
      governedByOperator: governor === null ? null : governor.toLowerCase() === r.operator.toLowerCase(),
      borrowLTVBps: ltvBps,
      borrowLTV: ltv,
      borrowLTVPct: pct(ltv),
      note:
        "An isolated Euler v2 (EVK) market: the USDC vault lends only against shares of the kUSD escrow vault, which holds collateral and lends nothing. " +
        "Its parameters (collateral, LTV, rate) are set by the vault's governor (governorAdmin, the market's curator); governedByOperator says whether that is the operator's own account.",
    },
    lendingVault: {
      address: L.address,
      asset: "USDC" as const,
      assetAddress: lAsset,
      totalSupplyUSDC: units(supply, USDC_DECIMALS),
      totalSupplyUSDCRaw: str(supply),
      totalBorrowsUSDC: units(borrows, USDC_DECIMALS),
      totalBorrowsUSDCRaw: str(borrows),
      cashUSDC: units(cash, USDC_DECIMALS),
      cashUSDCRaw: str(cash),
      totalSharesRaw: str(lShares),
      utilization: util,
      utilizationPct: pct(util),
      interestRatePerSecondRay: str(rate),
      borrowAPR: apr,
      borrowAPRPct: pct(apr),
    },
    operatorSupply: {
      account: r.operator,
      sharesRaw: str(opShares),
      suppliedUSDC: units(opSupplied, USDC_DECIMALS),
      suppliedUSDCRaw: str(opSupplied),
      shareOfSupply: opShare,
      shareOfSupplyPct: pct(opShare),
      debtUSDC: units(opDebt, USDC_DECIMALS),
      debtUSDCRaw: str(opDebt),
    },
    escrowVault: {
      address: E.address,
      asset: "kUSD" as const,
      assetAddress: eAsset,
      totalEscrowedKUSD: units(escrowed, KUSD_DECIMALS),
      totalEscrowedKUSDWei: str(escrowed),
      totalSharesRaw: str(eShares),
      operatorSharesRaw: str(opEscrowShares),
      operatorEscrowedKUSD: units(opEscrowed, KUSD_DECIMALS),
      operatorEscrowedKUSDWei: str(opEscrowed),
      operatorShareOfEscrow: opEscrowShare,
      operatorShareOfEscrowPct: pct(opEscrowShare),
    },
    methodology: METHODOLOGY,
    failedReads: r.failedReads,
    verifyVia,
  };
}
