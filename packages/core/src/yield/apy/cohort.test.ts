/** The through-cycle band, the genesis cohort and the incentive schedule, with hand numbers. */
import { describe, expect, it } from "vitest";
import { headlineApy } from "./apy-formula.js";
import {
  deliveredTotalApy,
  fullRateToTvl,
  genesisCohort,
  netApyAtLeverage,
  quantile,
  throughCycleBandPct,
} from "./cohort.js";

const base = { stakingYield: 0.03, strategyCostFraction: 0.1, insuranceAllocation: 0.1, protocolFee: 0 };

describe("through-cycle band", () => {
  it("is the headline at the 10th and 90th percentile of hourly funding", () => {
    const rates = Array.from({ length: 11 }, (_, i) => i * 0.000001); // 0 … 10e-6 per hour
    expect(quantile(rates, 0.1)).toBeCloseTo(0.000001, 12);
    const band = throughCycleBandPct(rates, base)!;
    const at = (f: number) => Math.round(headlineApy({ ...base, fundingAnnual: f * 8760 }).expectedAPY * 10_000) / 100;
    expect(band).toEqual([at(0.000001), at(0.000009)]);
    expect(throughCycleBandPct([], base)).toBeNull();
  });
  it("the measured-leverage variant swaps L for the venue's implied leverage", () => {
    expect(netApyAtLeverage(3, { ...base, fundingAnnual: 0.1 })).toBeCloseTo((3 / 4) * 0.13 * 0.81, 12);
  });
});

describe("genesis cohort", () => {
  const i = {
    targetTotalApy: 0.12,
    baseApy: 0.05,
    escrowBalanceUsd: 20_000,
    tvlCapUsd: 1_000_000,
    stakedUsd: 500_000,
    insiderStakedUsd: 300_000,
    daysRemaining: 73,
  };
  it("delivers the target while the escrow carries it, less when it cannot", () => {
    // affordable = 20,000 / 500,000 × 365/73 = 0.2 ≥ 0.07 wanted → 0.12.
    expect(deliveredTotalApy(i)).toBeCloseTo(0.12, 12);
    // at 2,000,000 staked (twice the cap): wanted 0.07 × 0.5 = 0.035; affordable 0.05 → 0.085.
    expect(deliveredTotalApy(i, 2_000_000)).toBeCloseTo(0.085, 12);
  });
  it("seats up to the cap and splits insider from external stake", () => {
    const c = genesisCohort(i);
    expect(c).toMatchObject({
      seatedUSD: 500_000,
      roomUSD: 500_000,
      filled: false,
      capBinding: false,
      externalStakedUSD: 200_000,
    });
    expect(c.termCostUSD).toBeCloseTo(0.07 * 500_000 * (73 / 365), 6);
    expect(c.deliveredAtBook.map((b) => b.stakedUSD)).toEqual([250_000, 500_000, 1_000_000, 2_000_000]);
  });
  it("full rate holds up to balance × 365 / (subsidy × days)", () => {
    expect(fullRateToTvl(20_000, 0.07, 73)).toBeCloseTo((20_000 * 365) / (0.07 * 73), 6);
    expect(fullRateToTvl(20_000, 0, 73)).toBeNull();
  });
});
