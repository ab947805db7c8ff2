/**
 * SQL pieces of the aggregates: the UTC bucket of a row, and count/sum/min/max of an amount.
 * Grouping happens in the database (PGlite and PostgreSQL alike), never over fetched rows.
 */

import { type BucketInterval, DATE_TRUNC_FIELD, MAX_BUCKETS } from "@kusd/core";
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { badInput } from "../inputs.js";

/**
 * The bucket's start in unix seconds. `at time zone 'UTC'` makes a timestamp without zone, so
 * date_trunc cuts at UTC whatever the session's TimeZone; 'week' is the ISO week (Monday).
 * Inlined, not a parameter: GROUP BY must see the very expression the SELECT has.
 */
export function periodStartSql(interval: BucketInterval, unixSeconds: PgColumn): SQL<string> {
  const field = sql.raw(`'${DATE_TRUNC_FIELD[interval]}'`);
  return sql<string>`extract(epoch from date_trunc(${field}, to_timestamp(${unixSeconds}::double precision) at time zone 'UTC'))::bigint::text`;
}

/** count/sum/min/max of `value` over the group's rows (those matching `where`, when given), as text. */
export function statsSql(value: PgColumn | SQL, where?: SQL) {
  const only = where ? sql` filter (where ${where})` : sql``;
  return {
    count: sql<string>`(count(${value})${only})::text`,
    sum: sql<string | null>`(sum(${value})${only})::text`,
    min: sql<string | null>`(min(${value})${only})::text`,
    max: sql<string | null>`(max(${value})${only})::text`,
  };
}

/** A group key left out of the grouping still has its column in the answer: null. */
export const nothing = sql<null>`null::text`;

/** The rows, or an error naming the limit when the query asked for more than `max` groups (it fetches max + 1). */
export function withinBucketLimit<T>(rows: T[], max = MAX_BUCKETS): T[] {
  if (rows.length > max)
    throw badInput(
      `more than ${max} buckets (the MAX_BUCKETS limit): narrow the range, filter, group by fewer keys or use a longer interval`,
      { limit: "MAX_BUCKETS", max },
    );
  return rows;
}
