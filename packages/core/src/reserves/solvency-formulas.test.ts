import { describe, expect, it } from "vitest";
import {
  aggregateCollateralRatio,
  collateralUsd,
  outstandingKusd,
  pct,
  psmSolvencyRatio,
  recogniseL1Assets,
  solvencyStatus,
  vaultTvlUsd,
} from "./solvency-formulas.js";

const k = (n: number) => BigInt(n) * 10n ** 18n;

describe("spec 2.3 solvency formulas", () => {
  it("rule 1: outstanding = supply − kUSD held by the PSMs", () => {
    expect(outstandingKusd(k(1_000), [k(20), k(15), k(10)])).toBe(k(955));
  });
  it("rule 2: PSM ratio = combined PSM USDC / outstanding, null when nothing is outstanding", () => {
    expect(psmSolvencyRatio(1_001, 1_000)).toBeCloseTo(1.001, 12);
    expect(psmSolvencyRatio(5, 0)).toBeNull();
  });
  it("rule 3/5/6: collateral = vault v1 TVL + insurance fund + PSM USDC, and nothing else", () => {
    expect(collateralUsd({ vaultV1TvlUsd: 80, insuranceFundUsd: 5, psmUsdc: 117.85 })).toBeCloseTo(202.85, 10);
  });
  it("rule 4: aggregate = collateral / outstanding", () => {
    expect(aggregateCollateralRatio(204.95, 117.74)).toBeCloseTo(1.7407, 5);
    expect(aggregateCollateralRatio(1, 0)).toBeNull();
  });
  it("vault rule 1: TVL is the four buckets at the report's ETH price", () => {
    expect(
      vaultTvlUsd(
        { trackedOnChainEth: 1, offChainAssetsEth: 0.5, recognisedL1AssetsEth: 2, hedgingReserveEth: 0.5 },
        2_000,
      ),
    ).toBe(8_000);
  });
  it("vault rule 2: the mirror is recognised at min(mirror, live equity) and at zero when the venue is unread", () => {
    expect(recogniseL1Assets(100, 120)).toEqual({ recognisedUsd: 100, excessUsd: 0, status: "reconciled" });
    expect(recogniseL1Assets(150, 120)).toEqual({ recognisedUsd: 120, excessUsd: 30, status: "capped-to-live-venue" });
    expect(recogniseL1Assets(150, null)).toEqual({ recognisedUsd: 0, excessUsd: null, status: "unverified" });
  });
  it("status: fully backed by PSM USDC alone, else by the aggregate, else under; unknown without a ratio", () => {
    expect(solvencyStatus(1.001, 1.74)).toBe("fully-backed");
    expect(solvencyStatus(0.9, 1.2)).toBe("backed-with-vault-collateral");
    expect(solvencyStatus(0.9, 0.95)).toBe("under-collateralised");
    expect(solvencyStatus(null, 1.2)).toBe("unknown");
    expect(solvencyStatus(0.9, null)).toBe("unknown");
    // PSM USDC alone decides full backing: an unknown ETH price cannot undo it.
    expect(solvencyStatus(1, null)).toBe("fully-backed");
  });
  it("percent companions have two decimals and a percent sign", () => {
    expect(pct(1.001001)).toBe("100.10%");
    expect(pct(0.0635)).toBe("6.35%");
    expect(pct(null)).toBeNull();
  });
});
