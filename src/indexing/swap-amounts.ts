/**
 * What a PSM `Swap` event means in both tokens. `amount` is in fromToken units and `fee` in
 * kUSD units (18 decimals), as the deployed KUSDPSM emits them.
 */
export const KUSD_PER_USDC_UNIT = 10n ** 12n;

export type SwapAmounts = { usdcAmount: bigint; kusdAmount: bigint; feeBps: number };

export function swapAmounts(direction: "mint" | "redeem", amount: bigint, fee: bigint): SwapAmounts {
  if (direction === "mint") {
    const gross = amount * KUSD_PER_USDC_UNIT;
    return { usdcAmount: amount, kusdAmount: gross - fee, feeBps: bps(fee, gross) };
  }
  return { usdcAmount: (amount - fee) / KUSD_PER_USDC_UNIT, kusdAmount: amount, feeBps: bps(fee, amount) };
}

/** fee / gross in whole basis points, rounded to nearest. */
export function bps(fee: bigint, gross: bigint): number {
  if (gross === 0n) return 0;
  return Number((fee * 10_000n + gross / 2n) / gross);
}
