/**
 * /api/euler: occupancy of the operator's isolated lending market (an Euler v2 / EVK market of
 * two vaults: a USDC vault that lends against a kUSD escrow vault that only holds collateral).
 * Pure: raw integers from pinned reads in, the report out. A read that failed is `null` and
 * every figure derived from it is `null`, never a guess.
 */
import type { Address, Hex } from "viem";
import { z } from "zod";
import { basePins, type Pins, PinsSchema } from "../reports/pins.js";
import type { Read } from "../reserves/por/snapshot.js";
import { pct } from "../reserves/solvency-formulas.js";
import { isoTime, toUnits } from "../reserves/units.js";
import { addressSchema, isoTimeSchema, verifyViaSchema, weiSchema } from "../schema-primitives.js";

export const USDC_DECIMALS = 6;
export const KUSD_DECIMALS = 18;
/** EVK rates are per second, scaled by 1e27 (ray). */
export const RAY = 10n ** 27n;
export const SECONDS_PER_YEAR = 365n * 24n * 60n * 60n;
const SCALE = 10n ** 18n;

/** A raw value and its reproduction command (annotated with the report field it feeds), or null when the read failed. */
export type { Read };

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
  /** The block's hash (null when the header could not be read: no block is pinned). */
  blockHash: Hex | null;
  /** The network document the reads were made with (pins.network). */
  network: Pins["network"];
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
export const utilization = (totalBorrows: bigint | null, totalAssets: bigint | null) =>
  fraction(totalBorrows, totalAssets);

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

export const OCCUPANCY_METHODOLOGY =
  "Every figure is an eth_call pinned to blockNumber; each raw read has a `cast call … --block N` command in verifyVia, annotated with the field it feeds and the raw value. " +
  "Lending vault (USDC): totalSupplyUSDC = totalAssets() (= cash() + totalBorrows()); utilization = totalBorrows / totalAssets, null when totalAssets is 0; " +
  "borrowAPR = interestRate() (per second, 1e27-scaled) × 31,536,000 s, simple, not compounded. " +
  "The operator's supply = convertToAssets(balanceOf(operator)) on the lending vault; shareOfSupply = that / totalAssets. " +
  "Escrow vault (kUSD, collateral only, lends nothing): totalEscrowedKUSD = totalAssets(); the operator's escrow = convertToAssets(balanceOf(operator)); its share = that / totalAssets. " +
  "Fractions are computed on the raw integers; the …Pct strings round them to two decimals. A read that fails is null and listed in failedReads, never guessed.";

// ---------------------------------------------------------------- the published shape

/** Plain JSON types only: the schema is also the route's OpenAPI entry (z.toJSONSchema). */
const fractionSchema = (what: string) =>
  z.number().nullable().describe(`${what}, a fraction; null when a read it needs failed or its denominator is 0`);
const pctSchema = (what: string) =>
  z
    .string()
    .regex(/^-?\d+\.\d{2}%$/)
    .nullable()
    .describe(`${what} as a percentage string rounded to two decimals`);
const tokenAmount = (what: string) =>
  z.number().nullable().describe(`${what} in token units (from the raw integer, unrounded); null when the read failed`);
const raw = (what: string) =>
  weiSchema.nullable().describe(`${what}: the raw integer as a decimal string; null when the read failed`);
const readAddress = (what: string) => addressSchema.nullable().describe(`${what}; null when the read failed`);

const marketSchema = z.strictObject({
  venue: z.literal("euler"),
  kind: z.literal("EVK isolated market"),
  chain: z.literal("base"),
  lendingVault: addressSchema.describe("the USDC vault that lends"),
  escrowVault: addressSchema.describe("the kUSD escrow vault: collateral only, lends nothing"),
  governor: readAddress("governorAdmin() of the lending vault: who sets the market's parameters"),
  governedByOperator: z
    .boolean()
    .nullable()
    .describe("whether the governor is the operator's own account; null when the governor read failed"),
  borrowLTVBps: z
    .number()
    .int()
    .nullable()
    .describe("LTVBorrow(escrow vault) of the lending vault, in basis points; null when the read failed"),
  borrowLTV: fractionSchema("borrowLTVBps / 10,000"),
  borrowLTVPct: pctSchema("borrowLTV"),
  note: z.string(),
});

const lendingVaultSchema = z.strictObject({
  address: addressSchema,
  asset: z.literal("USDC"),
  assetAddress: readAddress("asset() of the vault"),
  totalSupplyUSDC: tokenAmount("totalAssets() (= cash + totalBorrows)"),
  totalSupplyUSDCRaw: raw("totalAssets()"),
  totalBorrowsUSDC: tokenAmount("totalBorrows()"),
  totalBorrowsUSDCRaw: raw("totalBorrows()"),
  cashUSDC: tokenAmount("cash()"),
  cashUSDCRaw: raw("cash()"),
  totalSharesRaw: raw("totalSupply(): the vault's share supply"),
  utilization: fractionSchema("totalBorrows / totalAssets"),
  utilizationPct: pctSchema("utilization"),
  interestRatePerSecondRay: raw("interestRate(): the per-second borrow rate, 1e27-scaled"),
  borrowAPR: fractionSchema("interestRate() × 31,536,000 s / 1e27, simple, not compounded"),
  borrowAPRPct: pctSchema("borrowAPR"),
});

const operatorSupplySchema = z.strictObject({
  account: addressSchema.describe("the operator"),
  sharesRaw: raw("balanceOf(operator) on the lending vault"),
  suppliedUSDC: tokenAmount("convertToAssets(balanceOf(operator)): what the operator's shares withdraw"),
  suppliedUSDCRaw: raw("convertToAssets(balanceOf(operator))"),
  shareOfSupply: fractionSchema("suppliedUSDC / totalSupplyUSDC"),
  shareOfSupplyPct: pctSchema("shareOfSupply"),
  debtUSDC: tokenAmount("debtOf(operator): what the operator itself borrows"),
  debtUSDCRaw: raw("debtOf(operator)"),
});

const escrowVaultSchema = z.strictObject({
  address: addressSchema,
  asset: z.literal("kUSD"),
  assetAddress: readAddress("asset() of the vault"),
  totalEscrowedKUSD: tokenAmount("totalAssets(): all kUSD escrowed as collateral"),
  totalEscrowedKUSDWei: raw("totalAssets()"),
  totalSharesRaw: raw("totalSupply(): the vault's share supply"),
  operatorSharesRaw: raw("balanceOf(operator) on the escrow vault"),
  operatorEscrowedKUSD: tokenAmount("convertToAssets(balanceOf(operator)): the operator's escrowed kUSD"),
  operatorEscrowedKUSDWei: raw("convertToAssets(balanceOf(operator))"),
  operatorShareOfEscrow: fractionSchema("operatorEscrowedKUSD / totalEscrowedKUSD"),
  operatorShareOfEscrowPct: pctSchema("operatorShareOfEscrow"),
});

/** GET /api/euler: the isolated lending market's occupancy at one block. */
export const LendingOccupancySchema = z
  .strictObject({
    venue: z.literal("euler"),
    blockNumber: z.number().int().describe("the block every read is pinned to"),
    timestamp: isoTimeSchema.nullable().describe("the block's time; null when the block header could not be read"),
    market: marketSchema.describe("the market's two vaults and its governance"),
    lendingVault: lendingVaultSchema.describe("the USDC vault: supply, borrows, cash, utilization and borrow rate"),
    operatorSupply: operatorSupplySchema.describe("the operator's own supply to (and debt from) the lending vault"),
    escrowVault: escrowVaultSchema.describe("the kUSD escrow vault and the operator's collateral in it"),
    methodology: z.string(),
    failedReads: z.array(z.string()).describe("reads that failed (their figures are null, never guessed)"),
    verifyVia: verifyViaSchema,
    pins: PinsSchema,
  })
  .describe("occupancy of the operator's isolated Euler v2 (EVK) lending market, from reads pinned to one block");
export type LendingOccupancy = z.infer<typeof LendingOccupancySchema>;

export function buildOccupancyReport(r: OccupancyReads): LendingOccupancy {
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
    methodology: OCCUPANCY_METHODOLOGY,
    failedReads: r.failedReads,
    verifyVia,
    pins: basePins({
      report: "lending-occupancy",
      network: r.network,
      block: r.blockHash && timestamp !== null ? { number: Number(r.blockNumber), hash: r.blockHash, timestamp } : null,
    }),
  };
}
