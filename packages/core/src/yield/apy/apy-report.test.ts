/**
 * The composed report: ApyReportSchema accepts what buildApyReport builds, in the same key order,
 * and rejects a report that gains or loses a field; realized and market context by hand.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fixture, venueDown } from "./apy-report.fixture.js";
import { ApyReportSchema, buildApyReport } from "./apy-report.js";

const peer = {
  key: "p",
  protocol: "Peer",
  asset: "pUSD",
  chain: "ethereum",
  apyPct: 7.1,
  tvlUsd: 1e9,
  basis: "realized trailing",
  source: "aggregator",
  sourceUrl: "https://agg.example/p",
  firstPartyUrl: null,
  measuredAt: null,
};

describe("ApyReportSchema", () => {
  it("parses the built report unchanged, key order included", () => {
    for (const inputs of [fixture(), venueDown(), { ...fixture(), escrow: null, marketPeers: [peer] }]) {
      const report = buildApyReport(inputs);
      expect(JSON.stringify(ApyReportSchema.parse(report))).toBe(JSON.stringify(report));
    }
  });

  it("fails a report that gains or loses a field, at any depth", () => {
    const report = buildApyReport(fixture());
    expect(ApyReportSchema.safeParse({ ...report, extra: 1 }).success).toBe(false);
    const { methodology: _, ...lost } = report;
    expect(ApyReportSchema.safeParse(lost).success).toBe(false);
    expect(ApyReportSchema.safeParse({ ...report, incentive: { ...report.incentive, extra: true } }).success).toBe(
      false,
    );
  });

  it("is plain JSON, so it becomes an OpenAPI 3.1 schema", () => {
    const json = z.toJSONSchema(ApyReportSchema) as {
      properties: Record<string, unknown>;
      additionalProperties: unknown;
    };
    expect(Object.keys(json.properties)).toEqual(Object.keys(buildApyReport(fixture())));
    expect(json.additionalProperties).toBe(false);
  });
});

describe("buildApyReport", () => {
  it("realized: 0.5 % growth over 36.5 days is 5 % a year, a full window", () => {
    expect(buildApyReport(fixture()).realized).toEqual({
      available: true,
      annualized: 0.05,
      windowDays: 30,
      windowClamped: true,
      measuredDays: 36.5,
      asOf: "2027-01-15T07:00:00.000Z",
      fromBlock: 1000,
      toBlock: 2000,
      source: "indexed skUSD convertToAssets(1e24) observations (totalAssets / 1e18 per share of 1e24 units)",
      note: "annualized as growth × 365 / days between the two observations",
    });
  });

  it("realized is unknown with no share price, and clamped when the history is short", () => {
    const none = buildApyReport({ ...fixture(), sharePrices: { latest: null, windowStart: null } });
    expect(none.realized).toMatchObject({
      available: false,
      annualized: null,
      windowClamped: true,
      measuredDays: null,
      asOf: null,
      fromBlock: null,
      toBlock: null,
    });
    expect(none.incentive).toMatchObject({ incentiveAPY: null, incentiveAPYPct: null, totalAPY: null });
    const i = fixture();
    const short = buildApyReport({
      ...i,
      sharePrices: {
        ...i.sharePrices,
        windowStart: { ...i.sharePrices.windowStart!, timestamp: i.sharePrices.latest!.timestamp - 10n * 86_400n },
      },
    });
    expect(short.realized).toMatchObject({ available: true, windowClamped: true, measuredDays: 10 });
    expect(short.realized.annualized).toBeCloseTo(0.005 * 36.5, 8); // the same growth over 10 days
  });

  it("market context names the first configured peer", () => {
    const r = buildApyReport({ ...fixture(), marketPeers: [peer] });
    expect(r.marketContext).toMatchObject({
      available: true,
      peers: [peer],
      sources: ["https://agg.example/p"],
      headline: { pct: 7.1, source: "aggregator" },
    });
    expect(buildApyReport(fixture()).marketContext).toMatchObject({
      available: false,
      headline: { pct: null, source: null },
    });
  });

  it("with the venue unreadable: the venue fields are null, the chain and indexed figures still land", () => {
    const r = buildApyReport(venueDown());
    expect(r).toMatchObject({
      apy: null,
      expectedAPY: null,
      isLive: false,
      source: "unavailable",
      fundingRate: null,
      avgAnnualFunding: null,
      stakingYield: 0.04,
    });
    expect(r.venueLeverage).toMatchObject({ venueConfigured: null, reconciles: null });
    expect(r.measuredVenue.available).toBe(false);
    expect(r.realized.annualized).toBe(0.05);
    // The escrow tops up a base of 0 when the headline is unknown: the whole 12 %, within the 0.40 sustainable.
    expect(r.incentive).toMatchObject({ baseAPY: 0, wouldPayAPY: 0.12, runwayDays: 243.3 });
    expect(r.genesisCohort).toMatchObject({ baseAPY: 0, subsidyAPY: 0.12 });
  });

  it("has neither escrow section without an escrow", () => {
    const r = buildApyReport({ ...fixture(), escrow: null });
    expect(r.incentive).toBeNull();
    expect(r.genesisCohort).toBeNull();
  });
});
