import { describe, expect, it } from "vitest";
import { A, snapshot } from "./fixture.js";
import { buildMarket, MarketSchema } from "./market.js";

describe("market", () => {
  it("an answer of 2,000 · 10^8 at 8 decimals is 2,000 USD", () => {
    const m = buildMarket(snapshot(), 2_000);
    expect(MarketSchema.parse(m)).toEqual(m);
    expect(m).toEqual({
      ethPriceUSD: 2_000,
      source: `ETH / USD feed ${A(30)} latestRoundData() at the report's block`,
      updatedAt: "2026-09-21T14:13:20.000Z",
      verifyVia: [expect.stringContaining("market.ethPriceUSD")],
    });
  });

  it("no feed configured, or its read failed: no price and no command", () => {
    expect(buildMarket(snapshot({ ethUsd: null }), null)).toEqual({
      ethPriceUSD: null,
      source: "no ETH / USD feed configured",
      updatedAt: null,
      verifyVia: [],
    });
    const failed = buildMarket(
      snapshot({ ethUsd: { answer: null, decimals: 8, updatedAt: null, address: A(30) } }),
      null,
    );
    expect(failed).toMatchObject({ ethPriceUSD: null, updatedAt: null, verifyVia: [] });
    expect(MarketSchema.parse(failed)).toEqual(failed);
  });
});
