/** Realized APY between two share-price reads (the honesty board's windows). */

/** (convertToAssets at `to` / at `from` − 1) × 365 / days between them; null over no time or from a zero price. */
export function realizedApy(from: { t: number; assets: bigint }, to: { t: number; assets: bigint }): number | null {
  const days = (to.t - from.t) / 86_400;
  if (days <= 0 || from.assets === 0n) return null;
  return (Number(to.assets) / Number(from.assets) - 1) * (365 / days);
}
