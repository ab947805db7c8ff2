/** Vault events grouped in SQL by UTC bucket, vault and kind. */

import { type BucketInterval, MAX_BUCKETS, type VaultBucket, vaultBucket } from "@kusd/core";
import { and, inArray, sql } from "drizzle-orm";
import * as schema from "../../../ponder.schema.js";
import type { ReadDb } from "../../io/indexed-reads.js";
import { present, rangeConditions } from "../filters.js";
import { periodStartSql, statsSql, withinBucketLimit } from "./sql.js";

export type VaultAggregateQuery = {
  interval: BucketInterval;
  vault?: readonly string[] | null;
  kind?: readonly string[] | null;
  range?: Parameters<typeof rangeConditions>[0];
};

export async function vaultBuckets(
  db: ReadDb,
  q: VaultAggregateQuery,
  maxBuckets = MAX_BUCKETS,
): Promise<VaultBucket[]> {
  const v = schema.vaultEvent;
  const period = periodStartSql(q.interval, v.timestamp);
  // Vault and kind are always group keys: units differ by vault, and a deposit's shares are not a transfer's.
  const groups = [period, sql`${v.vaultKey}`, sql`${v.kind}`];
  const rows = await db
    .select({
      periodStart: period,
      vaultKey: sql<string>`${v.vaultKey}`,
      kind: sql<string>`${v.kind}`,
      count: sql<string>`count(*)::text`,
      assets: statsSql(v.assets),
      shares: statsSql(v.shares),
    })
    .from(v)
    .where(
      and(
        ...present([
          q.vault?.length ? inArray(v.vaultKey, [...q.vault]) : undefined,
          q.kind?.length ? inArray(v.kind, [...q.kind]) : undefined,
          ...rangeConditions(q.range, v.blockNumber, v.timestamp),
        ]),
      ),
    )
    .groupBy(...groups)
    .orderBy(...groups)
    .limit(maxBuckets + 1);
  return withinBucketLimit(rows, maxBuckets).map((r) => vaultBucket(q.interval, r));
}
