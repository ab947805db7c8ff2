/**
 * Redemption routing (spec 2.3 redemptionDepth rules 1–4): a redemption is one transaction
 * against one PSM, paid only from that PSM's USDC. An amount goes to the smallest reserve that
 * fully covers it; a larger amount is split across PSMs, deepest first. No market route.
 */
export type FeeTier = { threshold: bigint; feeBps: bigint }; // threshold in USDC units (6 decimals), exclusive
export type PsmReserve = { key: string; address: `0x${string}`; reserveUsdc: bigint; canServeRedemptions: boolean };
export type RedemptionLeg = { key: string; address: `0x${string}`; kusdIn: bigint; feeKusd: bigint; feeBps: number; usdcOut: bigint };
export type RedemptionPlan = { legs: RedemptionLeg[]; kusdRouted: bigint; shortfallKusd: bigint; sequentialTransactions: boolean };

const SCALE = 10n ** 12n; // kUSD wei per USDC unit

const byReserve = (a: PsmReserve, b: PsmReserve) => (a.reserveUsdc < b.reserveUsdc ? -1 : a.reserveUsdc > b.reserveUsdc ? 1 : 0);

/** The PSM's redeem fee for `kusd`: the first tier whose threshold exceeds the USDC amount. */
export function redeemFee(kusd: bigint, tiers: readonly FeeTier[], flatBps = 0n): { fee: bigint; bps: bigint } {
  const usdc = kusd / SCALE;
  const tier = tiers.find((t) => usdc < t.threshold);
  const bps = tier ? tier.feeBps : flatBps;
  return { fee: (kusd * bps) / 10_000n, bps };
}

export function payoutUsdc(kusd: bigint, tiers: readonly FeeTier[]): bigint {
  return (kusd - redeemFee(kusd, tiers).fee) / SCALE;
}

/** Largest kUSD amount one transaction can redeem against `reserveUsdc` (payout grows with the amount). */
export function maxRedeemableKusd(reserveUsdc: bigint, tiers: readonly FeeTier[]): bigint {
  let lo = 0n;
  let hi = reserveUsdc * SCALE * 2n + SCALE;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (payoutUsdc(mid, tiers) <= reserveUsdc) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

function leg(psm: PsmReserve, kusdIn: bigint, tiers: readonly FeeTier[]): RedemptionLeg {
  const { fee, bps } = redeemFee(kusdIn, tiers);
  return { key: psm.key, address: psm.address, kusdIn, feeKusd: fee, feeBps: Number(bps), usdcOut: (kusdIn - fee) / SCALE };
}

export function planRedemption(kusd: bigint, psms: readonly PsmReserve[], tiers: readonly FeeTier[]): RedemptionPlan {
  const open = psms.filter((p) => p.canServeRedemptions && p.reserveUsdc > 0n);
  const single = open
    .filter((p) => maxRedeemableKusd(p.reserveUsdc, tiers) >= kusd)
    .sort(byReserve)[0];
  if (single) return { legs: [leg(single, kusd, tiers)], kusdRouted: kusd, shortfallKusd: 0n, sequentialTransactions: false };

  const legs: RedemptionLeg[] = [];
  let remaining = kusd;
  for (const p of [...open].sort(byReserve).reverse()) {
    if (remaining === 0n) break;
    const take = [remaining, maxRedeemableKusd(p.reserveUsdc, tiers)].reduce((a, b) => (a < b ? a : b));
    if (take === 0n) continue;
    legs.push(leg(p, take, tiers));
    remaining -= take;
  }
  return { legs, kusdRouted: kusd - remaining, shortfallKusd: remaining, sequentialTransactions: legs.length > 1 };
}

/** Rules 1–2: instant capacity is the deepest single reserve; the total needs sequential transactions. */
export function redemptionDepth(psms: readonly PsmReserve[]) {
  const open = psms.filter((p) => p.canServeRedemptions);
  const deepest = [...open].sort(byReserve).at(-1) ?? null;
  const total = open.reduce((a, p) => a + p.reserveUsdc, 0n);
  return {
    instantSingleTransactionUsdc: deepest?.reserveUsdc ?? 0n,
    deepestLegAddress: deepest?.address ?? null,
    totalReachableUsdc: total,
    totalReachableRequiresSequentialTransactions: open.filter((p) => p.reserveUsdc > 0n).length > 1,
  };
}
