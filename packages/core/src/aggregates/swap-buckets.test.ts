import { describe, expect, it } from "vitest";
import { amountStats } from "./amount.js";
import { swapBucket } from "./swap-buckets.js";
import { transferBucket } from "./transfer-buckets.js";
import { transferUnit, vaultUnits } from "./units.js";
import { vaultBucket } from "./vault-buckets.js";

const none = { count: "0", sum: null, min: null, max: null };
const stats = (sum: string, min: string, max: string, count = "2") => ({ count, sum, min, max });

describe("labelled amounts", () => {
  it("carry raw, unit, decimals and the exact decimal text", () => {
    expect(amountStats({ unit: "USDC", decimals: 6 }, stats("12500000", "500000", "12000000"))).toEqual({
      count: 2,
      sum: { raw: 12_500_000n, unit: "USDC", decimals: 6, formatted: "12.5" },
      min: { raw: 500_000n, unit: "USDC", decimals: 6, formatted: "0.5" },
      max: { raw: 12_000_000n, unit: "USDC", decimals: 6, formatted: "12" },
    });
    expect(amountStats({ unit: "kUSD", decimals: 18 }, none)).toBeNull();
  });
});

describe("swap buckets", () => {
  const row = {
    periodStart: "1779667200", // 2026-05-25, a Monday
    psmKey: "psmMint",
    direction: null,
    feeBps: 10,
    count: "3",
    mints: "2",
    redemptions: "1",
    usdc: stats("3000000000", "999000000", "1001000000", "3"),
    kusd: stats("3000000000000000000000", "999000000000000000000", "1001000000000000000000", "3"),
    mintFee: stats("2000000", "1000000", "1000000"),
    redeemFee: stats("1000000000000000000", "1000000000000000000", "1000000000000000000", "1"),
    kusdBurned: "1000000000000000000000",
    netKusd: "-5000000000000000000",
    netUsdc: "1002000000",
  };

  it("split fees by unit: mints in USDC, redemptions in kUSD", () => {
    const b = swapBucket("WEEK", row);
    expect(b.mintFees?.sum).toEqual({ raw: 2_000_000n, unit: "USDC", decimals: 6, formatted: "2" });
    expect(b.redeemFees?.sum).toEqual({ raw: 10n ** 18n, unit: "kUSD", decimals: 18, formatted: "1" });
    expect(swapBucket("WEEK", { ...row, mintFee: none }).mintFees).toBeNull();
  });

  it("label the nets, negative included, and name the period", () => {
    const b = swapBucket("WEEK", row);
    expect(b.netKusd).toEqual({ raw: -5n * 10n ** 18n, unit: "kUSD", decimals: 18, formatted: "-5" });
    expect(b.netUsdc.formatted).toBe("1002");
    expect([b.periodStart, b.periodEnd]).toEqual(["2026-05-25T00:00:00.000Z", "2026-06-01T00:00:00.000Z"]);
    expect([b.psmKey, b.direction, b.feeBps, b.count, b.mints, b.redemptions]).toEqual(["psmMint", null, 10, 3, 2, 1]);
    expect(b.usdc.sum.unit).toBe("USDC");
    expect(b.kusd.max.formatted).toBe("1001");
  });
});

describe("transfer and vault buckets", () => {
  it("label a transfer's amount by its token", () => {
    const b = transferBucket("DAY", {
      periodStart: 1779667200,
      tokenSymbol: "skUSD",
      classification: null,
      count: 1,
      amount: stats("1000000000000000000000000", "1000000000000000000000000", "1000000000000000000000000", "1"),
    });
    expect(b.amount.sum).toMatchObject({ unit: "skUSD shares", decimals: 24, formatted: "1" });
    expect(b.periodEnd).toBe("2026-05-26T00:00:00.000Z");
  });

  it("label vault assets and shares per vault, null where the kind carries none", () => {
    expect(vaultUnits("vaultV2")).toEqual({
      assets: { unit: "WETH", decimals: 18 },
      shares: { unit: "vault v2 shares", decimals: 21 },
    });
    const b = vaultBucket("MONTH", {
      periodStart: "1777593600", // 2026-05-01
      vaultKey: "skUSD",
      kind: "transfer",
      count: "4",
      assets: none,
      shares: stats("4", "1", "3", "4"),
    });
    expect(b.assets).toBeNull();
    expect(b.shares?.sum).toMatchObject({ raw: 4n, unit: "skUSD shares", decimals: 24 });
    expect([b.periodStart, b.periodEnd]).toEqual(["2026-05-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"]);
    expect(vaultUnits("unknown").shares).toEqual({ unit: "unknown (raw units)", decimals: 0 });
    expect(transferUnit("DAI").decimals).toBe(0);
  });
});
