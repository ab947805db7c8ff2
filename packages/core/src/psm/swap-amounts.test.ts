import { describe, expect, it } from "vitest";
import { bps, swapAmounts } from "./swap-amounts.js";

describe("swapAmounts (Swap.amount and Swap.fee in fromToken units, as every deployed PSM emits them)", () => {
  it("reads a mint: USDC in, fee in USDC, kUSD minted = (amount − fee) · 1e12", () => {
    expect(swapAmounts("mint", 1_000_000_000n, 0n)).toEqual({
      usdcAmount: 1_000_000_000n,
      kusdAmount: 1_000n * 10n ** 18n,
      feeBps: 0,
    });
    // The operator's fork measurement: 500 USDC at 10 bps mints 499.5 kUSD (fee 0.5 USDC = 500000).
    expect(swapAmounts("mint", 500_000_000n, 500_000n)).toEqual({
      usdcAmount: 500_000_000n,
      kusdAmount: 4995n * 10n ** 17n,
      feeBps: 10,
    });
  });

  it("reads a redemption: kUSD in, fee in kUSD, USDC out = (amount − fee) / 1e12", () => {
    // 20,000 kUSD at 10 bps: 20 kUSD fee, 19,980 USDC paid.
    const r = swapAmounts("redeem", 20_000n * 10n ** 18n, 20n * 10n ** 18n);
    expect(r).toEqual({ usdcAmount: 19_980_000_000n, kusdAmount: 20_000n * 10n ** 18n, feeBps: 10 });
  });

  it("rounds fee bps to the nearest basis point and survives a zero amount", () => {
    expect(bps(75n, 100_000n)).toBe(8); // 7.5 → 8
    expect(bps(74n, 100_000n)).toBe(7);
    expect(bps(0n, 0n)).toBe(0);
  });
});
