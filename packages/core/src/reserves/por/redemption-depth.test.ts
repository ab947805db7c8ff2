import { describe, expect, it } from "vitest";
import { A, FOUNDER, inputs, R, snapshot } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";
import { buildRedemptionDepth, RedemptionDepthSchema } from "./redemption-depth.js";
import type { ChainSnapshot } from "./snapshot.js";

const build = (s: ChainSnapshot) =>
  buildRedemptionDepth(
    s,
    computePorFigures(s, 20_000, [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }]),
    inputs(s).precedent,
  );

describe("redemptionDepth (rules 1–2, 6)", () => {
  it("instant = the deepest reserve (500,000), total = all three (900,000) in sequential transactions", () => {
    const d = build(snapshot());
    expect(RedemptionDepthSchema.parse(d)).toEqual(d);
    expect(d).toMatchObject({
      instantSingleTransactionUSDC: 500_000,
      instantSingleTransactionPctOfOutstanding: "55.56%",
      deepestLegAddress: A(1),
      totalReachableUSDC: 900_000,
      totalReachablePctOfOutstanding: "100.00%",
      totalReachableRequiresSequentialTransactions: true,
      outstandingKUSD: 900_000,
    });
    expect(d.byContract).toEqual([
      {
        key: "psmMint",
        label: "live mint PSM",
        address: A(1),
        reserveUSDC: 500_000,
        pctOfOutstanding: "55.56%",
        redeemOnly: false,
        canServeRedemptions: true,
      },
      {
        key: "psmRetiredMint",
        label: "prior mint PSM",
        address: A(2),
        reserveUSDC: 300_000,
        pctOfOutstanding: "33.33%",
        redeemOnly: true,
        canServeRedemptions: true,
      },
      {
        key: "psmRedeemReserve",
        label: "legacy redeem PSM",
        address: A(3),
        reserveUSDC: 100_000,
        pctOfOutstanding: "11.11%",
        redeemOnly: true,
        canServeRedemptions: true,
      },
    ]);
    // No redemptions yet; one log query per PSM plus the burns.
    expect(d.precedent).toMatchObject({
      executedRedemptions: 0,
      allRedemptionsByFounderWallet: false,
      transactions: [],
    });
    expect(d.precedent.verifyVia).toHaveLength(4);
  });

  it("a paused or unreadable-pause PSM serves no redemption", () => {
    const s = snapshot();
    s.psms.psmMint = { ...s.psms.psmMint, paused: R(true) };
    s.psms.psmRedeemReserve = { ...s.psms.psmRedeemReserve, paused: null };
    const d = build(s);
    expect(d).toMatchObject({
      instantSingleTransactionUSDC: 300_000,
      deepestLegAddress: A(2),
      totalReachableUSDC: 300_000,
      totalReachableRequiresSequentialTransactions: false,
    });
    expect(d.byContract.map((c) => c.canServeRedemptions)).toEqual([false, true, false]);
  });

  it("outstanding unknown: capacity still published, percentages unknown", () => {
    const s = snapshot({ kusdTotalSupply: null });
    const d = build(s);
    expect(d).toMatchObject({
      instantSingleTransactionUSDC: 500_000,
      instantSingleTransactionPctOfOutstanding: null,
      outstandingKUSD: null,
    });
    expect(d.byContract[0]!.pctOfOutstanding).toBeNull();
  });
});
