/**
 * Vault events per UTC bucket, vault and kind. Assets and shares are labelled per vault (kUSD or
 * WETH; skUSD's 24-decimal or the deposit vaults' 21-decimal shares); a kind that carries no
 * assets (a share transfer) or no shares (yield, sweeps) has null stats for it.
 */
import { type AmountStats, amountStats, type RawStats } from "./amount.js";
import { type BucketInterval, type Period, periodOf } from "./buckets.js";
import { vaultUnits } from "./units.js";

export type VaultBucketRow = {
  periodStart: string | number;
  vaultKey: string;
  kind: string;
  count: string | number;
  assets: RawStats;
  shares: RawStats;
};

export type VaultBucket = Period & {
  vaultKey: string;
  kind: string;
  count: number;
  assets: AmountStats | null;
  shares: AmountStats | null;
};

export function vaultBucket(interval: BucketInterval, r: VaultBucketRow): VaultBucket {
  const units = vaultUnits(r.vaultKey);
  return {
    ...periodOf(interval, Number(r.periodStart)),
    vaultKey: r.vaultKey,
    kind: r.kind,
    count: Number(r.count),
    assets: amountStats(units.assets, r.assets),
    shares: amountStats(units.shares, r.shares),
  };
}
