import { describe, expect, it } from "vitest";
import { FOUNDER, kusd, R, snapshot } from "./fixture.js";
import { computePorFigures } from "./por-figures.js";

const listed = [{ address: FOUNDER, kind: "eoa" as const, role: "venue_margin" }];

describe("derived figures", () => {
  it("outstanding, price, PSM totals, vault v1 TVL and holder USD from the fixture", () => {
    const f = computePorFigures(snapshot(), 20_000, listed);
    expect(f).toMatchObject({
      block: 1000,
      price: 2_000,
      outstanding: 900_000,
      outstandingRaw: kusd(900_000),
      psmUsdcTotal: 900_000,
      psmKusdTotalRaw: kusd(100_000),
    });
    expect(f.vaultV1).toMatchObject({
      mirrorEth: 5,
      mirrorUsd: 10_000,
      recognisedL1Eth: 5,
      trackedEth: 10,
      offChainEth: 2,
      hedgingEth: 1,
      tvlUsd: 36_000,
    });
    expect(f.holdersUsd).toEqual({ insuranceFund: 12_000, treasury: 5, multisig: 1_000 });
  });

  it("the founder's skUSD stake: 300,000 of 390,000 shares of 400,000 kUSD", () => {
    const f = computePorFigures(snapshot(), 20_000, listed);
    expect(f.founderStake.shares).toBe(300_000n * 10n ** 24n);
    expect(f.founderStake.fraction).toBeCloseTo(300_000 / 390_000, 15);
    // 400,000 · 10/13, floored in wei.
    expect(f.founderStake.kusd).toBeCloseTo(4_000_000 / 13, 9);
  });

  it("only externally owned registry accounts are the founder's", () => {
    const f = computePorFigures(snapshot(), 20_000, [{ address: FOUNDER, kind: "contract", role: "x" }]);
    expect(f.founderStake).toEqual({ shares: 0n, fraction: 0, kusd: 0 });
  });

  it("a failed read leaves every figure built on it unknown", () => {
    const s = snapshot();
    s.psms.psmRedeemReserve = { ...s.psms.psmRedeemReserve, kusd: null };
    const f = computePorFigures({ ...s, ethUsd: null, kusdTotalSupply: R(kusd(1)) }, 20_000, listed);
    expect(f).toMatchObject({
      outstanding: null,
      outstandingRaw: null,
      psmKusdTotalRaw: null,
      price: null,
      psmUsdcTotal: 900_000,
    });
    expect(f.vaultV1).toMatchObject({ mirrorUsd: null, l1: null, recognisedL1Eth: null, tvlUsd: null });
    // Without a price even a zero WETH balance has no USD value: every holder total is unknown.
    expect(f.holdersUsd).toEqual({ insuranceFund: null, treasury: null, multisig: null });
  });
});
