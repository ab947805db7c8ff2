/**
 * An entity as the generic queries see it: its columns (name, kind, description with unit), its
 * unique key, and where its rows come from at a block. GraphQL's connections and the exports are
 * both built from these specs, so a filter, an order or a cursor means the same in both.
 */
import { lte, type SQL, type SQLWrapper, type Subquery } from "drizzle-orm";
import type { PgTable, PgView } from "drizzle-orm/pg-core";

/**
 * How a column is compared, sorted and printed. Addresses and hashes are stored lowercase and
 * compared case-insensitively; bigint and timestamp columns (numeric(78) in Ponder) compare as
 * the big integers they are; a timestamp is unix seconds inside, ISO 8601 outside.
 */
export type ColumnKind = "bigint" | "int" | "text" | "hex-address" | "hex-hash" | "enum" | "boolean" | "timestamp";

export type ColumnSpec = {
  /** The name in GraphQL filters (`name_gte`), in `orderBy`, in the exports, and the row's key. */
  name: string;
  kind: ColumnKind;
  /** What it holds, with unit and decimals. */
  description: string;
  /** A short unit for the exports' header row: `usdcAmount (USDC, 6 decimals raw)`. */
  unit?: string;
  /** An enum column's values, and the GraphQL enum type that lists them. */
  values?: readonly string[];
  enumType?: string;
  nullable?: boolean;
};

/**
 * Where an entity's rows come from: the Ponder table, or a drizzle subquery aliased with the
 * table's column names (the state at a past block), and a condition every row meets (an event
 * table at a block: blockNumber ≤ N). Columns are read by name from `from`.
 */
export type RowSource = { from: PgTable | PgView | Subquery; where?: SQL };

export type Row = Record<string, unknown>;

export type EntitySpec = {
  /** The GraphQL object type: `PsmSwap` (and `PsmSwap_filter`, `PsmSwap_orderBy`). */
  type: string;
  /** The connection field, also the export's name: `psmSwaps` (`/api/export/psmSwaps.csv`). */
  connection: string;
  description: string;
  columns: readonly ColumnSpec[];
  /** A unique key, most significant first: the default order, and the tiebreak after any `orderBy`. */
  key: readonly string[];
  /** The block column of an event entity (state at block N = rows with it ≤ N); absent for state entities. */
  blockColumn?: string;
  /** The rows as of `block` (null: as indexed now): eventSource or historySource. */
  source: (block: bigint | null) => RowSource;
};

/** The column `name` of a source (a table column or a subquery's aliased field). */
export function columnOf(source: RowSource, name: string): SQLWrapper {
  // A property of the source itself, not its raw selected fields: drizzle's views and subqueries
  // hand out their fields through a proxy that names the view or the subquery's alias.
  const column: unknown = Reflect.get(source.from, name);
  if (!isSqlWrapper(column)) throw new Error(`row source has no column ${name}`);
  return column;
}

const isSqlWrapper = (v: unknown): v is SQLWrapper =>
  typeof v === "object" && v !== null && "getSQL" in v && typeof v.getSQL === "function";

export function columnSpec(spec: EntitySpec, name: string): ColumnSpec | undefined {
  return spec.columns.find((c) => c.name === name);
}

/** Events stay once emitted: the state at block N is the rows of blocks up to N. */
export function eventSource(table: PgTable, blockColumn: string): EntitySpec["source"] {
  const column = columnOf({ from: table }, blockColumn);
  return (block) => (block === null ? { from: table } : { from: table, where: lte(column, block) });
}

/**
 * Current values with a history to rebuild them from: the table or view itself now, and at a
 * block the subquery `atBlock` makes (same column names; api/io/state-at-block.ts).
 */
export function historySource(table: PgTable | PgView, atBlock: (block: bigint) => Subquery): EntitySpec["source"] {
  return (block) => (block === null ? { from: table } : { from: atBlock(block) });
}
