/** The headline, its sources and framing from hand-made inputs, with the figures worked by hand. */
import { describe, expect, it } from "vitest";
import { computeApyFigures } from "./apy-figures.js";
import { buildFraming } from "./apy-framing.js";
import { measureFunding } from "./apy-funding.js";
import { buildHeadline } from "./apy-headline.js";
import { fixture, venueDown } from "./apy-report.fixture.js";
import { buildSources } from "./apy-sources.js";
import { measureStaking } from "./apy-staking.js";

describe("funding and staking measures", () => {
  it("annualises the mean hourly funding and keeps the hedged coin's quotes only", () => {
    const f = measureFunding(fixture().venue);
    expect(f.annual).toBeCloseTo(0.1, 12); // (0.05 + 0.15) / 2 / 8760 per hour × 8760
    expect(Object.keys(f.quotes)).toEqual(["HlPerp", "BinPerp"]); // BTC's quote is not ETH's
    expect(f.quotes.HlPerp).toEqual({
      venue: "HlPerp",
      rate: 0.00001,
      annual: expect.closeTo(0.0876, 12),
      interval: "1h",
    });
    // No interval given: 8-hourly, 1095 intervals a year → 0.1095, the best quote.
    expect(f.quotes.BinPerp).toEqual({
      venue: "BinPerp",
      rate: 0.0001,
      annual: expect.closeTo(0.1095, 12),
      interval: "8h",
    });
    expect(f.best?.venue).toBe("BinPerp");
  });

  it("averages the LSTs that have a 7-day yield, leaving out the one without observations", () => {
    const s = measureStaking(fixture());
    // One day apart: 50,000 / 365,000,000 × 365 = 0.05 and 30,000 / 365,000,000 × 365 = 0.03;
    // the observation 7.75 days back is outside the window (rate 1 would make it astronomic).
    expect(s.lstYields.wstETH).toBeCloseTo(0.05, 10);
    expect(s.lstYields.cbETH).toBeCloseTo(0.03, 10);
    expect(s.lstYields.rETH).toBeNull();
    expect(Object.keys(s.lstYields)).toEqual(["wstETH", "cbETH", "rETH"]);
    expect(s.stakingYield).toBeCloseTo(0.04, 10);
  });
});

describe("headline", () => {
  it("is L/(L+1) × (staking + funding) × (1 − costs): 2.5/3.5 × 0.14 × 0.9 × 0.9 = 0.081", () => {
    const i = fixture();
    const h = buildHeadline(i, computeApyFigures(i));
    expect(h).toMatchObject({
      apy: 8.1,
      expectedAPY: 0.081,
      organicAPY: 0.081,
      expectedAPYPct: "8.10%",
      organicAPYPct: "8.10%",
    });
    expect(h).toMatchObject({
      isLive: true,
      source: "live",
      regime: "positive-funding",
      fundingRate: 0.1,
      stakingYield: 0.04,
      stakingYieldPct: "4.00%",
    });
    expect(h).toMatchObject({
      hedgeVenue: "hyperliquid",
      bestFundingVenue: "BinPerp",
      protocolFee: 0,
      feePhase: "genesis",
    });
    expect([h.timestamp, h.timestampUTC, h.updatedAt]).toEqual(Array(3).fill("2027-01-15T08:00:00.000Z"));
    expect(h.methodology).toContain("over 60 days × 8760");
  });

  it("publishes the model's steps in sources: L = 1.5 + 0.1 × 10 = 2.5, gross 0.10, after strategy cost 0.09", () => {
    const i = fixture();
    const s = buildSources(i, computeApyFigures(i));
    expect(s).toMatchObject({
      leverage: 2.5,
      carryMultiplier: 0.71428571,
      grossAPY: 0.1,
      strategyNetAPY: 0.09,
      fundingEntries: 2,
      fundingWindowDays: 60,
    });
    expect(s.fundingSource).toBe("http://venue.test/info fundingHistory ETH");
    expect(s.stakingSource).toBe(
      "wstETH: indexed ExchangeRateUpdated of 0x2222222222222222222222222222222222222222; cbETH: indexed updates of the cbETH / ETH exchange rate feed 0x3333333333333333333333333333333333333333 (latestRoundData, read every 300 blocks); rETH: indexed ExchangeRateUpdated of 0x2222222222222222222222222222222222222222",
    );
  });

  it("frames the band at the 10th and 90th percentile of hourly funding", () => {
    const i = fixture();
    const fr = buildFraming(i, computeApyFigures(i));
    // Percentiles of the two hourly rates: 0.06 and 0.14 a year. At 0.06: L = 2.1,
    // 2.1/3.1 × 0.10 × 0.81 = 5.487 % → 5.49; at 0.14: L = 2.9, 2.9/3.9 × 0.18 × 0.81 = 10.842 % → 10.84.
    expect(fr.throughCycleBandPct).toEqual([5.49, 10.84]);
    expect(fr.realizedToDate).toBeCloseTo(0.05, 12); // 0.5 % over 36.5 days, unrounded
  });

  it("is null, not guessed, when the venue is unreadable; the staking yield still lands", () => {
    const i = venueDown();
    const f = computeApyFigures(i);
    const h = buildHeadline(i, f);
    expect(h).toMatchObject({
      apy: null,
      expectedAPY: null,
      organicAPY: null,
      expectedAPYPct: null,
      organicAPYPct: null,
    });
    expect(h).toMatchObject({
      isLive: false,
      source: "unavailable",
      regime: null,
      fundingRate: null,
      bestFundingVenue: null,
      fundingRates: {},
      stakingYield: 0.04,
    });
    expect(buildSources(i, f)).toMatchObject({
      fundingRate: null,
      fundingEntries: 0,
      leverage: null,
      carryMultiplier: null,
      grossAPY: null,
      strategyNetAPY: null,
    });
    expect(buildFraming(i, f).throughCycleBandPct).toBeNull();
  });
});
