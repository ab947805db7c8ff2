/** PSM swaps grouped in SQL by UTC bucket and any of PSM, direction and fee tier. */

import { type BucketInterval, MAX_BUCKETS, type SwapBucket, type SwapGroupKey, swapBucket } from "@kusd/core";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import * as schema from "../../../ponder.schema.js";
import type { ReadDb } from "../../io/indexed-reads.js";
import { present, rangeConditions } from "../filters.js";
import { nothing, periodStartSql, statsSql, withinBucketLimit } from "./sql.js";

export type SwapAggregateQuery = {
  interval: BucketInterval;
  groupBy: readonly SwapGroupKey[];
  psm?: readonly string[] | null;
  direction?: "mint" | "redeem" | null;
  feeBps?: readonly number[] | null;
  range?: Parameters<typeof rangeConditions>[0];
};

export async function swapBuckets(db: ReadDb, q: SwapAggregateQuery, maxBuckets = MAX_BUCKETS): Promise<SwapBucket[]> {
  const s = schema.psmSwap;
  const period = periodStartSql(q.interval, s.timestamp);
  const by = new Set(q.groupBy);
  const psmKey = by.has("PSM") ? sql<string>`${s.psmKey}` : nothing;
  const direction = by.has("DIRECTION") ? sql<string>`${s.direction}::text` : nothing;
  const feeBps = by.has("FEE_TIER") ? sql<number>`${s.feeBps}` : nothing;
  const groups: SQL[] = [period, ...(by.has("PSM") ? [psmKey] : []), ...(by.has("DIRECTION") ? [direction] : [])];
  if (by.has("FEE_TIER")) groups.push(feeBps);
  const isMint = sql`${s.direction} = 'mint'`;
  const isRedeem = sql`${s.direction} = 'redeem'`;
  const rows = await db
    .select({
      periodStart: period,
      psmKey,
      direction,
      feeBps,
      count: sql<string>`count(*)::text`,
      mints: sql<string>`(count(*) filter (where ${isMint}))::text`,
      redemptions: sql<string>`(count(*) filter (where ${isRedeem}))::text`,
      usdc: statsSql(s.usdcAmount),
      kusd: statsSql(s.kusdAmount),
      mintFee: statsSql(s.fee, isMint),
      redeemFee: statsSql(s.fee, isRedeem),
      kusdBurned: sql<string | null>`sum(${s.kusdBurned})::text`,
      // A mint's kusdAmount is minted and its usdcAmount taken in; a redemption's the reverse.
      netKusd: sql<string | null>`sum(case when ${isMint} then ${s.kusdAmount} else -${s.kusdAmount} end)::text`,
      netUsdc: sql<string | null>`sum(case when ${isMint} then ${s.usdcAmount} else -${s.usdcAmount} end)::text`,
    })
    .from(s)
    .where(
      and(
        ...present([
          q.psm?.length ? inArray(s.psmKey, [...q.psm]) : undefined,
          q.direction ? eq(s.direction, q.direction) : undefined,
          q.feeBps?.length ? inArray(s.feeBps, [...q.feeBps]) : undefined,
          ...rangeConditions(q.range, s.blockNumber, s.timestamp),
        ]),
      ),
    )
    .groupBy(...groups)
    .orderBy(...groups)
    .limit(maxBuckets + 1);
  return withinBucketLimit(rows, maxBuckets).map((r) => swapBucket(q.interval, r));
}
