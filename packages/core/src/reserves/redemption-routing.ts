/**
 * Redemption routing (spec 2.3 redemptionDepth rules 1–4): a redemption is one transaction
 * against one PSM, paid only from that PSM's USDC. An amount goes to the smallest reserve that
 * fully covers it; a larger amount is split across PSMs, deepest first. No market route.
 *
 * Fees follow the deployed bytecode of each PSM, from the schedule read at the report's block:
 * - the virtual peg, when enabled, overrides everything (no deployed PSM can switch it on:
 *   there is no setter, but the rule is read, not assumed);
 * - tiers are scanned in stored order and the first with `size >= threshold` wins (thresholds
 *   are lower bounds), else the flat `swapFees[USDC]`;
 * - `size` is the kUSD amount in USDC units on v3 and the live PSM, but the RAW kUSD amount
 *   (18 decimals) on PSM v1, whose thresholds are in USDC units: there, every redemption above
 *   1e12 wei meets the lowest tier.
 */
import type { PsmVersion } from "../network/types.js";

import type { FeeTier } from "../psm/parameters-at.js";
export type FeeSchedule = {
  version: PsmVersion;
  tiers: readonly FeeTier[];
  swapFeeBps: bigint;
  virtualPegEnabled: boolean;
  virtualPegFeeBps: bigint;
};
export type PsmReserve = {
  key: string;
  address: `0x${string}`;
  reserveUsdc: bigint;
  canServeRedemptions: boolean;
  fees: FeeSchedule;
};
export type RedemptionLeg = {
  key: string;
  address: `0x${string}`;
  kusdIn: bigint;
  feeKusd: bigint;
  feeBps: number;
  usdcOut: bigint;
  tierSize: bigint;
};
export type RedemptionPlan = {
  legs: RedemptionLeg[];
  kusdRouted: bigint;
  shortfallKusd: bigint;
  sequentialTransactions: boolean;
};

const SCALE = 10n ** 12n; // kUSD wei per USDC unit

const byReserve = (a: PsmReserve, b: PsmReserve) =>
  a.reserveUsdc < b.reserveUsdc ? -1 : a.reserveUsdc > b.reserveUsdc ? 1 : 0;

/** The size a PSM compares with its tier thresholds when it redeems `kusd`. */
export function redeemTierSize(kusd: bigint, version: PsmVersion): bigint {
  return version === "v1" ? kusd : kusd / SCALE;
}

/** The deployed `_selectFeeBps` (v3, live) and the fee part of `getFee` (v1) for a size. */
export function selectFeeBps(size: bigint, s: FeeSchedule): bigint {
  if (s.virtualPegEnabled) return s.virtualPegFeeBps;
  return s.tiers.find((t) => size >= t.threshold)?.feeBps ?? s.swapFeeBps;
}

/** The PSM's redeem fee for `kusd`, in kUSD. */
export function redeemFee(kusd: bigint, s: FeeSchedule): { fee: bigint; bps: bigint } {
  const bps = selectFeeBps(redeemTierSize(kusd, s.version), s);
  return { fee: (kusd * bps) / 10_000n, bps };
}

/** A mint's fee for `usdc` paid in, in USDC (every version compares USDC units here). */
export function mintFee(usdc: bigint, s: FeeSchedule): { fee: bigint; bps: bigint } {
  const bps = selectFeeBps(usdc, s);
  return { fee: (usdc * bps) / 10_000n, bps };
}

export function payoutUsdc(kusd: bigint, s: FeeSchedule): bigint {
  return (kusd - redeemFee(kusd, s).fee) / SCALE;
}

/**
 * Largest kUSD amount one transaction can redeem against `reserveUsdc`. The payout grows with
 * the amount as long as larger sizes never pay a higher rate, which holds for the ladder every
 * deployed PSM is configured with (10 → 8 → 7 → 5 bps).
 */
export function maxRedeemableKusd(reserveUsdc: bigint, s: FeeSchedule): bigint {
  let lo = 0n;
  let hi = reserveUsdc * SCALE * 2n + SCALE;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (payoutUsdc(mid, s) <= reserveUsdc) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

function leg(psm: PsmReserve, kusdIn: bigint): RedemptionLeg {
  const { fee, bps } = redeemFee(kusdIn, psm.fees);
  return {
    key: psm.key,
    address: psm.address,
    kusdIn,
    feeKusd: fee,
    feeBps: Number(bps),
    usdcOut: (kusdIn - fee) / SCALE,
    tierSize: redeemTierSize(kusdIn, psm.fees.version),
  };
}

/**
 * What the PSM's own `getFee(USDC, leg.tierSize)` returns when the fee rule applied here is the
 * deployed one: PSM v1 quotes the redemption itself (its size is the raw kUSD amount); v3 and the
 * live PSM quote the same tier on the size in USDC units.
 */
export function expectedGetFee(leg: RedemptionLeg, version: PsmVersion): bigint {
  return version === "v1" ? leg.feeKusd : (leg.tierSize * BigInt(leg.feeBps)) / 10_000n;
}

export function planRedemption(kusd: bigint, psms: readonly PsmReserve[]): RedemptionPlan {
  const open = psms.filter((p) => p.canServeRedemptions && p.reserveUsdc > 0n);
  const single = open.filter((p) => payoutUsdc(kusd, p.fees) <= p.reserveUsdc).sort(byReserve)[0];
  if (single) return { legs: [leg(single, kusd)], kusdRouted: kusd, shortfallKusd: 0n, sequentialTransactions: false };

  const legs: RedemptionLeg[] = [];
  let remaining = kusd;
  for (const p of [...open].sort(byReserve).reverse()) {
    if (remaining === 0n) break;
    const max = maxRedeemableKusd(p.reserveUsdc, p.fees);
    const take = remaining < max ? remaining : max;
    if (take === 0n) continue;
    legs.push(leg(p, take));
    remaining -= take;
  }
  return { legs, kusdRouted: kusd - remaining, shortfallKusd: remaining, sequentialTransactions: legs.length > 1 };
}

/** Rules 1–2: instant capacity is the deepest single reserve; the total needs sequential transactions. */
export function redemptionDepth(psms: readonly Pick<PsmReserve, "address" | "reserveUsdc" | "canServeRedemptions">[]) {
  const open = psms.filter((p) => p.canServeRedemptions);
  const deepest =
    [...open].sort((a, b) => (a.reserveUsdc < b.reserveUsdc ? -1 : a.reserveUsdc > b.reserveUsdc ? 1 : 0)).at(-1) ??
    null;
  const total = open.reduce((a, p) => a + p.reserveUsdc, 0n);
  return {
    instantSingleTransactionUsdc: deepest?.reserveUsdc ?? 0n,
    deepestLegAddress: deepest?.address ?? null,
    totalReachableUsdc: total,
    totalReachableRequiresSequentialTransactions: open.filter((p) => p.reserveUsdc > 0n).length > 1,
  };
}
