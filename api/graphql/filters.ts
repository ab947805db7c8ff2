/**
 * The `range` input of the earlier hand-made filters (still taken by the aggregates and, as a
 * deprecated alias, by the entity connections), and what a range asks for in `where`'s terms.
 */
import { gte, lte, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { builder } from "./builder.js";
import { unixTime } from "./inputs.js";
import type { WhereInput } from "./query/where.js";

export const RangeFilter = builder.inputType("RangeFilter", {
  description: "Block and time bounds, inclusive. Times are ISO 8601.",
  fields: (t) => ({
    fromBlock: t.field({ type: "BigInt" }),
    toBlock: t.field({ type: "BigInt" }),
    from: t.string({ description: "ISO 8601, inclusive" }),
    to: t.string({ description: "ISO 8601, inclusive" }),
  }),
});

export type Range =
  | { fromBlock?: bigint | null; toBlock?: bigint | null; from?: string | null; to?: string | null }
  | null
  | undefined;

export function rangeConditions(range: Range, block: PgColumn, time: PgColumn): SQL[] {
  if (!range) return [];
  const out: SQL[] = [];
  if (range.fromBlock != null) out.push(gte(block, range.fromBlock));
  if (range.toBlock != null) out.push(lte(block, range.toBlock));
  const from = unixTime(range.from, "range.from");
  const to = unixTime(range.to, "range.to");
  if (from !== undefined) out.push(gte(time, from));
  if (to !== undefined) out.push(lte(time, to));
  return out;
}

/** A range as filters on blockNumber and timestamp (times as given: the filter parses ISO 8601). */
export function rangeWhere(range: Range): WhereInput {
  if (!range) return {};
  return {
    blockNumber_gte: range.fromBlock,
    blockNumber_lte: range.toBlock,
    timestamp_gte: range.from,
    timestamp_lte: range.to,
  };
}

export const present = <T>(xs: (T | undefined | null | false)[]) => xs.filter((x): x is T => !!x);
