/**
 * UTC time buckets shared by the GraphQL aggregates and the history series: HOUR, DAY, WEEK
 * (ISO weeks, from Monday) and MONTH. Pure; the SQL side groups with PostgreSQL's
 * date_trunc at UTC, and these functions name the same buckets in JavaScript (their ends,
 * and the days a dense series must cover), so the two must agree: the tests check both.
 */

export const BUCKET_INTERVALS = ["HOUR", "DAY", "WEEK", "MONTH"] as const;
export type BucketInterval = (typeof BUCKET_INTERVALS)[number];

const HOUR_SECONDS = 3_600;
export const DAY_SECONDS = 86_400;
const WEEK_SECONDS = 7 * DAY_SECONDS;
/** 1970-01-01 was a Thursday: shifting by three days puts ISO weeks' Mondays on multiples of 7 days. */
const MONDAY_OFFSET = 3 * DAY_SECONDS;

/** PostgreSQL's date_trunc field for each interval ('week' is the ISO week, Monday start). */
export const DATE_TRUNC_FIELD: Record<BucketInterval, "hour" | "day" | "week" | "month"> = {
  HOUR: "hour",
  DAY: "day",
  WEEK: "week",
  MONTH: "month",
};

const FIXED_SECONDS = { HOUR: HOUR_SECONDS, DAY: DAY_SECONDS, WEEK: WEEK_SECONDS } as const;

// A floored modulo: times before 1970 (never indexed, but cheap to get right) stay in their bucket.
const floorTo = (t: number, size: number, offset = 0) => t - ((((t + offset) % size) + size) % size);

/** Start (unix seconds) of the UTC bucket holding `t`. */
export function bucketStart(interval: BucketInterval, t: number): number {
  switch (interval) {
    case "HOUR":
      return floorTo(t, HOUR_SECONDS);
    case "DAY":
      return floorTo(t, DAY_SECONDS);
    case "WEEK":
      return floorTo(t, WEEK_SECONDS, MONDAY_OFFSET);
    case "MONTH": {
      const d = new Date(t * 1000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    }
  }
}

/** End (exclusive) of the bucket that starts at `start`: the next bucket's start. */
export function bucketEnd(interval: BucketInterval, start: number): number {
  switch (interval) {
    case "HOUR":
      return start + HOUR_SECONDS;
    case "DAY":
      return start + DAY_SECONDS;
    case "WEEK":
      return start + WEEK_SECONDS;
    case "MONTH": {
      // Months differ in length: Date.UTC rolls month 12 into January of the next year.
      const d = new Date(start * 1000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    }
  }
}

/** How many buckets `from` through `to` touch (both included); 0 when `to` is before `from`. */
export function bucketCount(interval: BucketInterval, from: number, to: number): number {
  const first = bucketStart(interval, from);
  const last = bucketStart(interval, to);
  if (last < first) return 0;
  if (interval === "MONTH") {
    const a = new Date(first * 1000);
    const b = new Date(last * 1000);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth()) + 1;
  }
  return (last - first) / FIXED_SECONDS[interval] + 1;
}

/** Every bucket start from the one holding `from` to the one holding `to`, ascending. */
export function bucketStarts(interval: BucketInterval, from: number, to: number): number[] {
  const out: number[] = [];
  const last = bucketStart(interval, to);
  for (let s = bucketStart(interval, from); s <= last; s = bucketEnd(interval, s)) out.push(s);
  return out;
}

/** A bucket as the aggregates publish it: ISO 8601 start and exclusive end. */
export type Period = { periodStart: string; periodEnd: string };
const iso = (t: number) => new Date(t * 1000).toISOString();
export const periodOf = (interval: BucketInterval, start: number): Period => ({
  periodStart: iso(start),
  periodEnd: iso(bucketEnd(interval, start)),
});

/**
 * More groups than this is a request for the rows themselves (which the connections page):
 * the aggregates refuse it with an error naming the limit rather than answer part of it.
 */
export const MAX_BUCKETS = 5_000;
