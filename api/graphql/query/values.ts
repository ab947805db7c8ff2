/**
 * A filter or cursor value of a column, from what GraphQL coerced (bigint, number, boolean) or
 * what a URL or JSON carried (strings, numbers), to the one form it is compared in, and bound to
 * SQL with its type: numeric(78) columns get a numeric parameter (a kUSD amount passes int8's
 * range), so every driver compares them as the big integers they are.
 */
import { type SQL, sql } from "drizzle-orm";
import { isAddress } from "viem";
import type { ColumnSpec } from "./entity.js";
import { invalid } from "./query-error.js";

/** A value of a column in the form it is compared in (addresses and hashes lowercase, times unix seconds). */
export type Value = bigint | number | string | boolean;

const BIG = /^-?\d{1,78}$/;
const INT = /^-?\d{1,10}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const MAX_TEXT = 256;

export function parseValue(column: ColumnSpec, raw: unknown, argument: string): Value {
  switch (column.kind) {
    case "bigint":
      return bigOf(raw, argument, `${argument} must be an integer (a decimal string)`);
    case "timestamp":
      return timeOf(raw, argument);
    case "int": {
      const n = typeof raw === "string" && INT.test(raw) ? Number(raw) : raw;
      if (typeof n !== "number" || !Number.isInteger(n) || Math.abs(n) > 2 ** 31 - 1)
        throw invalid(argument, `${argument} must be a 32-bit integer`);
      return n;
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      throw invalid(argument, `${argument} must be true or false`);
    case "hex-address":
      if (typeof raw !== "string" || !isAddress(raw, { strict: false }))
        throw invalid(argument, `${argument} is not an address (0x and 40 hex characters)`);
      return raw.toLowerCase();
    case "hex-hash":
      if (typeof raw !== "string" || !HASH.test(raw))
        throw invalid(argument, `${argument} is not a hash (0x and 64 hex characters)`);
      return raw.toLowerCase();
    case "enum":
      if (typeof raw !== "string" || !column.values?.includes(raw))
        throw invalid(argument, `${argument} must be one of ${column.values?.join(", ")}`, {
          values: column.values,
        });
      return raw;
    case "text":
      if (typeof raw !== "string" || raw.length > MAX_TEXT)
        throw invalid(argument, `${argument} must be a string of at most ${MAX_TEXT} characters`);
      return raw;
  }
}

function bigOf(raw: unknown, argument: string, message: string): bigint {
  if (typeof raw === "bigint") return raw;
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return BigInt(raw);
  if (typeof raw === "string" && BIG.test(raw)) return BigInt(raw);
  throw invalid(argument, message);
}

/** Unix seconds, from unix seconds (number or decimal string) or an ISO 8601 time. */
function timeOf(raw: unknown, argument: string): bigint {
  if (typeof raw === "string" && !BIG.test(raw)) {
    const ms = Date.parse(raw);
    if (!Number.isFinite(ms)) throw invalid(argument, `${argument} is not an ISO 8601 time or unix seconds`);
    return BigInt(Math.floor(ms / 1000));
  }
  return bigOf(raw, argument, `${argument} is not an ISO 8601 time or unix seconds`);
}

/**
 * The value as a typed SQL parameter. Strings stay untyped so an enum column (swap_direction)
 * accepts them, booleans take their type from the comparison (PGlite refuses text for a boolean
 * parameter); numbers carry their column's type.
 */
export function bind(column: ColumnSpec, value: Value): SQL {
  switch (column.kind) {
    case "bigint":
    case "timestamp":
      return sql`cast(${String(value)} as numeric)`;
    case "int":
      return sql`cast(${Number(value)} as integer)`;
    default:
      return sql`${value}`;
  }
}

/** The value of a null column where the sort needs one (a nullable column sorts on `is null` first). */
export function zeroOf(column: ColumnSpec): SQL {
  switch (column.kind) {
    case "bigint":
    case "timestamp":
      return sql`cast(0 as numeric)`;
    case "int":
      return sql`cast(0 as integer)`;
    case "boolean":
      return sql`false`;
    default:
      return sql`''`;
  }
}
