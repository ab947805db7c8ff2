/** Registry transfers grouped in SQL by UTC bucket, token and (optionally) classification. */

import {
  type BucketInterval,
  MAX_BUCKETS,
  TRANSFER_TOKENS,
  type TransferBucket,
  type TransferGroupKey,
  transferBucket,
} from "@kusd/core";
import { and, inArray, type SQL, sql } from "drizzle-orm";
import * as schema from "../../../ponder.schema.js";
import type { ReadDb } from "../../io/indexed-reads.js";
import { present, rangeConditions } from "../filters.js";
import { badInput } from "../inputs.js";
import { nothing, periodStartSql, statsSql, withinBucketLimit } from "./sql.js";

export type TransferAggregateQuery = {
  interval: BucketInterval;
  groupBy: readonly TransferGroupKey[];
  token?: readonly string[] | null;
  classification?: readonly string[] | null;
  range?: Parameters<typeof rangeConditions>[0];
};

/** A symbol outside the indexed tokens would silently match nothing: say so instead. */
function tokenSymbols(token: readonly string[] | null | undefined): string[] | undefined {
  if (!token?.length) return undefined;
  const unknown = token.filter((t) => !(TRANSFER_TOKENS as readonly string[]).includes(t));
  if (unknown.length)
    throw badInput(`token ${unknown.join(", ")} is not one of ${TRANSFER_TOKENS.join(", ")}`, { argument: "token" });
  return [...token];
}

export async function transferBuckets(
  db: ReadDb,
  q: TransferAggregateQuery,
  maxBuckets = MAX_BUCKETS,
): Promise<TransferBucket[]> {
  const x = schema.registryTransfer;
  const tokens = tokenSymbols(q.token);
  const period = periodStartSql(q.interval, x.timestamp);
  const byClass = q.groupBy.includes("CLASSIFICATION");
  const classification = byClass ? sql<string>`${x.classification}` : nothing;
  // The token is always a group key: amounts of different tokens never share a sum.
  const groups: SQL[] = [period, sql`${x.tokenSymbol}`, ...(byClass ? [classification] : [])];
  const rows = await db
    .select({
      periodStart: period,
      tokenSymbol: sql<string>`${x.tokenSymbol}`,
      classification,
      count: sql<string>`count(*)::text`,
      amount: statsSql(x.amount),
    })
    .from(x)
    .where(
      and(
        ...present([
          tokens ? inArray(x.tokenSymbol, tokens) : undefined,
          q.classification?.length ? inArray(x.classification, [...q.classification]) : undefined,
          ...rangeConditions(q.range, x.blockNumber, x.timestamp),
        ]),
      ),
    )
    .groupBy(...groups)
    .orderBy(...groups)
    .limit(maxBuckets + 1);
  return withinBucketLimit(rows, maxBuckets).map((r) => transferBucket(q.interval, r));
}
