/**
 * Sorting and cursors for any `orderBy`: rows are ordered by the chosen column, then by the
 * entity's unique key, all in one direction, so the order is total and a cursor (the row's
 * values of those columns) marks one position that stays put while rows are added. A nullable
 * column sorts as `(is null, coalesce(value))`: nulls last ascending, first descending (as
 * PostgreSQL does), and row comparisons never meet a null.
 */
import { type SQL, sql } from "drizzle-orm";
import { type ColumnSpec, columnOf, columnSpec, type EntitySpec, type Row, type RowSource } from "./entity.js";
import { invalid } from "./query-error.js";
import { bind, parseValue, type Value, zeroOf } from "./values.js";

export type Direction = "asc" | "desc";

/** The columns a page is sorted by (orderBy first, then the rest of the unique key) and the direction. */
export type Ordering = { orderBy: string; direction: Direction; keys: readonly ColumnSpec[] };

/**
 * The ordering `orderBy` and `orderDirection` ask for. No orderBy: the entity's key (chain order
 * for events). The direction takes The Graph's `asc`/`desc` and the older `ASC`/`DESC`.
 */
export function orderingOf(spec: EntitySpec, orderBy?: string | null, direction?: string | null): Ordering {
  const name = orderBy ?? spec.key[0]!;
  const first = columnSpec(spec, name);
  if (!first)
    throw invalid("orderBy", `orderBy must be a field of ${spec.type}: ${spec.columns.map((c) => c.name).join(", ")}`);
  const dir = (direction ?? "asc").toLowerCase();
  if (dir !== "asc" && dir !== "desc") throw invalid("orderDirection", "orderDirection must be asc or desc");
  const rest = spec.key.filter((k) => k !== name).map((k) => columnSpec(spec, k)!);
  return { orderBy: name, direction: dir, keys: [first, ...rest] };
}

/** The expressions rows are sorted by, in order. */
function sortExpressions(o: Ordering, source: RowSource): SQL[] {
  return o.keys.flatMap((k) => {
    const c = columnOf(source, k.name);
    return k.nullable ? [sql`(${c} is null)`, sql`coalesce(${c}, ${zeroOf(k)})`] : [sql`${c}`];
  });
}

/** ORDER BY terms; `reversed` for a page read backwards (`last`/`before`). */
export function orderTerms(o: Ordering, source: RowSource, reversed = false): SQL[] {
  const desc = (o.direction === "desc") !== reversed;
  return sortExpressions(o, source).map((e) => (desc ? sql`${e} desc` : sql`${e} asc`));
}

/** A cursor's values: one per sort key, null where a nullable column was null. */
export type Position = (Value | null)[];

export function cursorOf(o: Ordering, row: Row): string {
  const values = o.keys.map((k) => (row[k.name] === null || row[k.name] === undefined ? null : String(row[k.name])));
  return Buffer.from(JSON.stringify([o.orderBy, ...values])).toString("base64url");
}

/** The position a cursor marks; a cursor of another orderBy or not ours is the caller's error. */
export function decodeCursor(o: Ordering, cursor: string, argument: string): Position {
  const notOurs = () => invalid(argument, `${argument} is not a cursor this API issued`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw notOurs();
  }
  if (!Array.isArray(parsed) || parsed.length !== o.keys.length + 1) throw notOurs();
  if (parsed[0] !== o.orderBy)
    throw invalid(argument, `${argument} was issued for orderBy ${String(parsed[0])}, not ${o.orderBy}`);
  return o.keys.map((k, i) => {
    const v: unknown = parsed[i + 1];
    if (v === null && k.nullable) return null;
    if (typeof v !== "string") throw notOurs();
    try {
      return parseValue(k, v, argument);
    } catch {
      throw notOurs();
    }
  });
}

/**
 * Rows strictly after (or before) a position in the ordering's direction; `inclusive` also takes
 * the position itself. One row comparison, which PostgreSQL answers from an index on the keys.
 */
export function beyond(
  o: Ordering,
  source: RowSource,
  position: Position,
  side: "after" | "before",
  inclusive = false,
): SQL {
  const values = o.keys.flatMap((k, i) => {
    const v = position[i] ?? null;
    if (!k.nullable) return [bind(k, v!)];
    return [sql`${v === null}`, v === null ? zeroOf(k) : bind(k, v)];
  });
  const greater = (side === "after") === (o.direction === "asc");
  const op = sql.raw(`${greater ? ">" : "<"}${inclusive ? "=" : ""}`);
  return sql`(${sql.join(sortExpressions(o, source), sql`, `)}) ${op} (${sql.join(values, sql`, `)})`;
}
