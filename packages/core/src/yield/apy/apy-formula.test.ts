/** Spec 2.4 rules 1–7, each with hand-computed numbers. */
import { describe, expect, it } from "vitest";
import {
  annualiseMeanRate,
  annualRate,
  carryMultiplier,
  headlineApy,
  incentiveRates,
  leverage,
  realizedAnnualized,
  smaStakingYield,
} from "./apy-formula.js";

const DAY = 86_400;

describe("rule 2: L = min(12, 1.5 + funding × 10)", () => {
  it("grows with funding and is capped at 12", () => {
    expect(leverage(0.1)).toBeCloseTo(2.5, 12);
    expect(leverage(0)).toBe(1.5);
    expect(leverage(2)).toBe(12);
  });
  it("negative funding lowers it (no clamp at 1.5)", () => {
    expect(leverage(-0.05)).toBeCloseTo(1.0, 12);
  });
});

describe("rule 1: the headline", () => {
  it("uses L/(L+1), never L", () => {
    expect(carryMultiplier(2.5)).toBeCloseTo(2.5 / 3.5, 12);
    // staking 3 %, funding 10 % → L 2.5, multiplier 5/7; gross = 5/7 × 13 % = 9.2857 %;
    // × (1 − 0.1) × (1 − 0.05) × (1 − 0) = 7.9393 %.
    const h = headlineApy({
      stakingYield: 0.03,
      fundingAnnual: 0.1,
      strategyCostFraction: 0.1,
      insuranceAllocation: 0.05,
      protocolFee: 0,
    });
    expect(h.leverage).toBeCloseTo(2.5, 12);
    expect(h.grossAPY).toBeCloseTo((2.5 / 3.5) * 0.13, 12);
    expect(h.expectedAPY).toBeCloseTo((2.5 / 3.5) * 0.13 * 0.9 * 0.95, 12);
    expect(h.expectedAPY).toBeLessThan(0.13 * 2.5); // not L × carry
  });
  it("negative funding makes a smaller, possibly negative headline", () => {
    const h = headlineApy({
      stakingYield: 0.03,
      fundingAnnual: -0.05,
      strategyCostFraction: 0,
      insuranceAllocation: 0,
      protocolFee: 0,
    });
    expect(h.expectedAPY).toBeCloseTo((1 / 2) * -0.02, 12);
  });
});

describe("funding and staking inputs", () => {
  it("annualises a mean hourly rate by 8760 and an 8-hour rate by 1095", () => {
    expect(annualiseMeanRate([0.00001, 0.00003], 1)).toBeCloseTo(0.00002 * 8760, 12);
    expect(annualRate(0.0001, 8)).toBeCloseTo(0.0001 * 1095, 12);
    expect(annualiseMeanRate([], 1)).toBeNull();
  });
  it("staking yield is the simple mean of the daily yields, annualised", () => {
    const obs = [
      { t: 0, rate: 1_000_000n },
      { t: DAY, rate: 1_000_100n }, // +0.01 %
      { t: 2 * DAY, rate: 1_000_300n }, // +0.02 %
    ];
    const expected = ((0.0001 + 0.0002 / 1.0001) / 2) * 365;
    expect(smaStakingYield(obs)).toBeCloseTo(expected, 10);
    expect(smaStakingYield([{ t: 0, rate: 1n }])).toBeNull();
  });
});

describe("rules 4 and 7: realized yield", () => {
  it("annualises the share-price growth over the window", () => {
    // 1e24-unit share worth 1.000 then 1.005 kUSD (18 decimals) 30 days apart → 0.5 % × 365/30.
    const r = realizedAnnualized(
      { t: 0, assetsPerShare: 10n ** 18n },
      { t: 30 * DAY, assetsPerShare: 1_005n * 10n ** 15n },
    );
    expect(r.annualized).toBeCloseTo(0.005 * (365 / 30), 12);
    expect(r.windowClamped).toBe(false);
  });
  it("says so when the span measured is longer than the window (no observation within a day of its start)", () => {
    const r = realizedAnnualized(
      { t: 0, assetsPerShare: 10n ** 18n },
      { t: 34 * DAY, assetsPerShare: 1_005n * 10n ** 15n },
    );
    expect(r.days).toBe(34);
    expect(r.windowClamped).toBe(true);
  });
  it("does not flag a span within a day of the window (observations are hours apart)", () => {
    expect(
      realizedAnnualized({ t: 0, assetsPerShare: 10n ** 18n }, { t: 30.5 * DAY, assetsPerShare: 1_005n * 10n ** 15n })
        .windowClamped,
    ).toBe(false);
    expect(
      realizedAnnualized({ t: 0, assetsPerShare: 10n ** 18n }, { t: 31.5 * DAY, assetsPerShare: 1_005n * 10n ** 15n })
        .windowClamped,
    ).toBe(true);
  });
  it("clamps a shorter history and says so", () => {
    const r = realizedAnnualized(
      { t: 0, assetsPerShare: 10n ** 18n },
      { t: 10 * DAY, assetsPerShare: 1_001n * 10n ** 15n },
    );
    expect(r.windowClamped).toBe(true);
    expect(r.annualized).toBeCloseTo(0.001 * 36.5, 12);
  });
});

describe("rules 3 and 6: incentive", () => {
  it("wouldPayAPY never exceeds sustainableAPY", () => {
    const r = incentiveRates({
      targetApy: 0.12,
      baseApy: 0.05,
      eligibleTvl: 1_000_000,
      tvlCap: 2_000_000,
      escrowBalance: 10_000,
      daysLeft: 100,
    });
    expect(r.sustainableAPY).toBeCloseTo((10_000 / 1_000_000) * 3.65, 12);
    expect(r.wouldPayAPY).toBeCloseTo(Math.min(0.07, 0.0365), 12);
    expect(r.taperBinding).toBe(true);
    expect(r.wouldPayAPY).toBeLessThanOrEqual(r.sustainableAPY);
  });
  it("the cap binds above the TVL cap", () => {
    const r = incentiveRates({
      targetApy: 0.12,
      baseApy: 0.02,
      eligibleTvl: 4_000_000,
      tvlCap: 2_000_000,
      escrowBalance: 1e9,
      daysLeft: 100,
    });
    expect(r.capBinding).toBe(true);
    expect(r.wouldPayAPY).toBeCloseTo(0.1 * 0.5, 12);
  });
});
