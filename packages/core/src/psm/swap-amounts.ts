/**
 * What a PSM `Swap` event means in both tokens. Every deployed PSM version (v1, v3 and the live
 * one) emits `amount` AND `fee` in fromToken units: a mint's fee is USDC (6 decimals), taken
 * from the USDC paid in; a redemption's fee is kUSD (18 decimals), taken from the kUSD paid in.
 */
export const KUSD_PER_USDC_UNIT = 10n ** 12n;

export type SwapAmounts = { usdcAmount: bigint; kusdAmount: bigint; feeBps: number };

export function swapAmounts(direction: "mint" | "redeem", amount: bigint, fee: bigint): SwapAmounts {
  if (direction === "mint") {
    return { usdcAmount: amount, kusdAmount: (amount - fee) * KUSD_PER_USDC_UNIT, feeBps: bps(fee, amount) };
  }
  return { usdcAmount: (amount - fee) / KUSD_PER_USDC_UNIT, kusdAmount: amount, feeBps: bps(fee, amount) };
}

/** fee / gross in whole basis points, rounded to nearest. */
export function bps(fee: bigint, gross: bigint): number {
  if (gross === 0n) return 0;
  return Number((fee * 10_000n + gross / 2n) / gross);
}
