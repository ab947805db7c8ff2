/** The hedge account beside the model's L (rule 5), live and unreadable. */
import { describe, expect, it } from "vitest";
import { computeApyFigures } from "./apy-figures.js";
import { fixture, venueDown } from "./apy-report.fixture.js";
import { buildMeasuredVenue, buildVenueLeverage } from "./apy-venue.js";

describe("venue sections", () => {
  it("measures the implied leverage: 250,000 short / 100,000 equity = 2.5, reconciling with L = 2.5", () => {
    const i = fixture();
    const f = computeApyFigures(i);
    expect(buildVenueLeverage(i, f)).toMatchObject({
      modelWouldTransmit: 2.5,
      venueConfigured: 2.5,
      reconciles: true,
      transmittedByEngine: null,
      priorVenueDefault: null,
    });
    expect(buildVenueLeverage(i, f).verify).toBe(
      `curl -s -X POST http://venue.test/info -H 'content-type: application/json' -d '{"type":"clearinghouseState","user":"0x1111111111111111111111111111111111111111"}'`,
    );
    // 2.5/3.5 = 0.714286; at the measured 2.5 the headline is the model's own 0.081.
    expect(buildMeasuredVenue(i, f)).toMatchObject({
      available: true,
      shortNotionalUsd: 250_000,
      equityUsd: 100_000,
      impliedLeverage: 2.5,
      impliedCarryMultiplier: 0.714286,
      shortNotionalEth: 100,
      netApyAtMeasuredRatio: 0.081,
      asOf: "2027-01-15T08:00:00.000Z",
    });
  });

  it("does not reconcile beyond 25 % of L", () => {
    const i = fixture();
    i.venue.hedgeAccount = { equityUsd: 100_000, notionalUsd: 320_000, positions: [] }; // 3.2 vs 2.5: 28 % off
    const f = computeApyFigures(i);
    expect(buildVenueLeverage(i, f)).toMatchObject({ venueConfigured: 3.2, reconciles: false });
    expect(buildMeasuredVenue(i, f).shortNotionalEth).toBe(0); // no open position
  });

  it("leaves venueConfigured and reconciles null when the venue is unreadable", () => {
    const i = venueDown();
    const f = computeApyFigures(i);
    expect(buildVenueLeverage(i, f)).toMatchObject({
      modelWouldTransmit: null,
      venueConfigured: null,
      reconciles: null,
      note: "venue read failed: venue answered 500",
    });
    expect(buildMeasuredVenue(i, f)).toEqual({
      available: false,
      shortNotionalUsd: null,
      equityUsd: null,
      impliedLeverage: null,
      impliedCarryMultiplier: null,
      shortNotionalEth: null,
      netApyAtMeasuredRatio: null,
      note: "venue read failed: venue answered 500",
      asOf: null,
      source: "http://venue.test/info clearinghouseState(0x1111111111111111111111111111111111111111)",
    });
  });

  it("says not configured when there is no venue", () => {
    const i = fixture();
    i.venue = {
      ...i.venue,
      url: null,
      error: "venue not configured",
      hourlyFundingRates: [],
      predicted: [],
      hedgeAccount: null,
    };
    const f = computeApyFigures(i);
    expect(buildVenueLeverage(i, f).verify).toBeNull();
    expect(buildMeasuredVenue(i, f).source).toBe(
      "no venue clearinghouseState(0x1111111111111111111111111111111111111111)",
    );
  });
});
