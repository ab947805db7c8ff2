/** Registry transfers per UTC bucket, token and (optionally) classification, amounts labelled by token. */
import { type AmountStats, amountStats, type RawStats } from "./amount.js";
import { type BucketInterval, type Period, periodOf } from "./buckets.js";
import { transferUnit } from "./units.js";

export const TRANSFER_GROUP_KEYS = ["CLASSIFICATION"] as const;
export type TransferGroupKey = (typeof TRANSFER_GROUP_KEYS)[number];

export type TransferBucketRow = {
  periodStart: string | number;
  tokenSymbol: string;
  classification: string | null;
  count: string | number;
  amount: RawStats;
};

export type TransferBucket = Period & {
  tokenSymbol: string;
  classification: string | null;
  count: number;
  amount: AmountStats;
};

export const transferBucket = (interval: BucketInterval, r: TransferBucketRow): TransferBucket => ({
  ...periodOf(interval, Number(r.periodStart)),
  tokenSymbol: r.tokenSymbol,
  classification: r.classification,
  count: Number(r.count),
  // Every transfer has an amount: a group always has its stats.
  amount: amountStats(transferUnit(r.tokenSymbol), r.amount)!,
});
