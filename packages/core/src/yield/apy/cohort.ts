/**
 * Pure pieces of the yield report beyond the headline: the through-cycle band of the headline,
 * the genesis cohort (what the incentive escrow delivers at each book size), and the incentive
 * schedule figures. Inputs in USD / fractions; nothing here reads anything.
 */
import { pct } from "../../reserves/solvency-formulas.js";
import { type HeadlineInputs, headlineApy, sustainableApy } from "./apy-formula.js";

/** Quantile of a sample (linear between order statistics); null when empty. */
export function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

/**
 * The headline across the funding cycle: recomputed with the 10th and 90th percentile of the
 * window's hourly funding (annualised), everything else equal; in percent, low first.
 */
export function throughCycleBandPct(
  hourlyRates: readonly number[],
  base: Omit<HeadlineInputs, "fundingAnnual">,
): [number, number] | null {
  const lo = quantile(hourlyRates, 0.1);
  const hi = quantile(hourlyRates, 0.9);
  if (lo === null || hi === null) return null;
  const at = (f: number) => Math.round(headlineApy({ ...base, fundingAnnual: f * 8760 }).expectedAPY * 10_000) / 100;
  return [at(lo), at(hi)].sort((a, b) => a - b) as [number, number];
}

/** The headline at a measured leverage instead of the model's L (same inputs otherwise). */
export function netApyAtLeverage(l: number, i: HeadlineInputs): number {
  return headlineApy(i, l).expectedAPY;
}

export type CohortInputs = {
  targetTotalApy: number;
  baseApy: number;
  escrowBalanceUsd: number;
  tvlCapUsd: number;
  stakedUsd: number;
  insiderStakedUsd: number;
  daysRemaining: number;
};

/**
 * What the escrow delivers to a book of `stakedUsd`: the base plus the subsidy up to the target,
 * as far as the balance carries it over the days remaining; stakes above the cap dilute it.
 */
export function deliveredTotalApy(i: CohortInputs, stakedUsd = i.stakedUsd): number {
  if (stakedUsd <= 0 || i.daysRemaining <= 0) return i.baseApy;
  const wanted = Math.max(0, i.targetTotalApy - i.baseApy) * Math.min(1, i.tvlCapUsd / stakedUsd);
  const affordable = sustainableApy(i.escrowBalanceUsd, stakedUsd, i.daysRemaining);
  return i.baseApy + Math.min(wanted, affordable);
}

export function genesisCohort(i: CohortInputs) {
  const seated = Math.min(i.stakedUsd, i.tvlCapUsd);
  const subsidy = Math.max(0, i.targetTotalApy - i.baseApy);
  const books = [0.25, 0.5, 1, 2].map((k) => Math.round(i.tvlCapUsd * k));
  return {
    subsidyAPY: subsidy,
    deliveredTotalAPY: deliveredTotalApy(i),
    capBinding: i.stakedUsd > i.tvlCapUsd,
    seatedUSD: seated,
    roomUSD: Math.max(0, i.tvlCapUsd - i.stakedUsd),
    filled: i.stakedUsd >= i.tvlCapUsd,
    externalStakedUSD: Math.max(0, i.stakedUsd - i.insiderStakedUsd),
    termCostUSD: subsidy * seated * (i.daysRemaining / 365),
    // Pct fields are percent text everywhere ("12.00%"), like every other *Pct of the reports.
    deliveredAtBook: books.map((b) => ({ stakedUSD: b, deliveredTotalAPYPct: pct(deliveredTotalApy(i, b))! })),
  };
}

/** The TVL up to which the escrow pays the full target for the days remaining. */
export function fullRateToTvl(escrowBalanceUsd: number, subsidyApy: number, daysRemaining: number): number | null {
  if (subsidyApy <= 0 || daysRemaining <= 0) return null;
  return (escrowBalanceUsd * 365) / (subsidyApy * daysRemaining);
}
