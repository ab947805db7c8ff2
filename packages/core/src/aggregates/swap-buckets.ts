/**
 * PSM swaps per UTC bucket and group (PSM, direction, fee tier), as the SQL returns them and as
 * GraphQL publishes them: every amount labelled. Mint fees (USDC) and redemption fees (kUSD)
 * are separate figures; the nets are mint minus redeem in one unit each.
 */
import { type AmountStats, amountOf, amountStats, type LabelledAmount, type RawStats } from "./amount.js";
import { type BucketInterval, type Period, periodOf } from "./buckets.js";
import { KUSD_AMOUNT_UNIT, SWAP_FEE_UNIT, USDC_AMOUNT_UNIT } from "./units.js";

export const SWAP_GROUP_KEYS = ["PSM", "DIRECTION", "FEE_TIER"] as const;
export type SwapGroupKey = (typeof SWAP_GROUP_KEYS)[number];

export type SwapBucketRow = {
  periodStart: string | number;
  psmKey: string | null;
  direction: string | null;
  feeBps: string | number | null;
  count: string | number;
  mints: string | number;
  redemptions: string | number;
  usdc: RawStats;
  kusd: RawStats;
  mintFee: RawStats;
  redeemFee: RawStats;
  kusdBurned: string | null;
  netKusd: string | null;
  netUsdc: string | null;
};

export type SwapBucket = Period & {
  psmKey: string | null;
  direction: "mint" | "redeem" | null;
  feeBps: number | null;
  count: number;
  mints: number;
  redemptions: number;
  usdc: AmountStats;
  kusd: AmountStats;
  mintFees: AmountStats | null;
  redeemFees: AmountStats | null;
  kusdBurned: LabelledAmount;
  netKusd: LabelledAmount;
  netUsdc: LabelledAmount;
};

const big = (v: string | null) => BigInt(v ?? 0);
const direction = (v: string | null) => (v === "mint" || v === "redeem" ? v : null);

export function swapBucket(interval: BucketInterval, r: SwapBucketRow): SwapBucket {
  // Every swap has both amounts, so a group (at least one swap) always has their stats.
  const usdc = amountStats(USDC_AMOUNT_UNIT, r.usdc)!;
  const kusd = amountStats(KUSD_AMOUNT_UNIT, r.kusd)!;
  return {
    ...periodOf(interval, Number(r.periodStart)),
    psmKey: r.psmKey,
    direction: direction(r.direction),
    feeBps: r.feeBps === null ? null : Number(r.feeBps),
    count: Number(r.count),
    mints: Number(r.mints),
    redemptions: Number(r.redemptions),
    usdc,
    kusd,
    mintFees: amountStats(SWAP_FEE_UNIT.mint, r.mintFee),
    redeemFees: amountStats(SWAP_FEE_UNIT.redeem, r.redeemFee),
    kusdBurned: amountOf(big(r.kusdBurned), KUSD_AMOUNT_UNIT),
    netKusd: amountOf(big(r.netKusd), KUSD_AMOUNT_UNIT),
    netUsdc: amountOf(big(r.netUsdc), USDC_AMOUNT_UNIT),
  };
}
