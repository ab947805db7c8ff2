import { describe, expect, it } from "vitest";
import { FOUNDER, kusd, R, snapshot, usdc } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";
import type { ChainSnapshot } from "./snapshot.js";
import { buildSolvency, SolvencySchema } from "./solvency.js";

const build = (s: ChainSnapshot, venueEquity: number | null = 20_000) =>
  buildSolvency(computePorFigures(s, venueEquity, [{ address: FOUNDER, kind: "eoa", role: "venue_margin" }]));

describe("solvency (rules 2–6)", () => {
  it("900,000 USDC over 900,000 outstanding: fully backed; collateral 36,000 + 12,000 + 900,000", () => {
    const s = build(snapshot());
    expect(SolvencySchema.parse(s)).toEqual(s);
    expect(s).toMatchObject({
      status: "fully-backed",
      psmSolvent: true,
      psmSolvencyRatio: 1,
      psmSolvencyPct: "100.00%",
      primaryBackingRatio: 1,
      collateralUSD: 948_000,
      liabilitiesUSD: 900_000,
      aggregateCollateralRatio: 1.05333333,
      aggregateCollateralRatioPct: "105.33%",
      ratio: 1.05333333,
      ratioPct: "105.33%",
    });
  });

  it("890,000 USDC: the PSMs alone fall short, the vault collateral covers it", () => {
    const snap = snapshot();
    snap.psms.psmMint = { ...snap.psms.psmMint, usdc: R(usdc(490_000)) };
    // 890,000 / 900,000 and (36,000 + 12,000 + 890,000) / 900,000.
    expect(build(snap)).toMatchObject({
      status: "backed-with-vault-collateral",
      psmSolvent: false,
      psmSolvencyRatio: 0.98888889,
      aggregateCollateralRatio: 1.04222222,
    });
  });

  it("1,700,000 outstanding: under-collateralised", () => {
    expect(build(snapshot({ kusdTotalSupply: R(kusd(1_800_000)) }))).toMatchObject({
      status: "under-collateralised",
      psmSolvencyPct: "52.94%",
      aggregateCollateralRatio: 0.55764706,
    });
  });

  it("outstanding unknown or zero: no ratio, status unknown", () => {
    const snap = snapshot();
    snap.psms.psmMint = { ...snap.psms.psmMint, kusd: null };
    expect(build(snap)).toMatchObject({
      status: "unknown",
      psmSolvent: null,
      psmSolvencyRatio: null,
      psmSolvencyPct: null,
      liabilitiesUSD: null,
      aggregateCollateralRatio: null,
    });
    expect(build(snapshot({ kusdTotalSupply: R(kusd(100_000)) }))).toMatchObject({
      status: "unknown",
      liabilitiesUSD: 0,
      psmSolvencyRatio: null,
    });
  });

  it("rule 5: the venue failing moves the aggregate only (vault v1 loses the 10,000 USD mirror)", () => {
    const failed = build(snapshot(), null);
    expect(failed).toMatchObject({ psmSolvencyRatio: 1, collateralUSD: 938_000 });
  });
});
