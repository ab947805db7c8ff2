/**
 * Relay-style connections over keyset pagination: rows are ordered by a unique key (block,
 * log index or id), the cursor is that key, and a page is `first` rows after it. Stable under
 * inserts, and a walk from the start visits every row exactly once.
 */
import type { ObjectRef } from "@pothos/core";
import { type AnyColumn, and, asc, desc, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { builder } from "./builder.js";
import { present } from "./filters.js";
import { decodeCursor, encodeCursor, pageSize } from "./inputs.js";

export type Page<T> = {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};

export const OrderDirection = builder.enumType("OrderDirection", { values: ["ASC", "DESC"] as const });

const PageInfo = builder.objectRef<Page<unknown>["pageInfo"]>("PageInfo").implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage"),
    hasPreviousPage: t.exposeBoolean("hasPreviousPage"),
    startCursor: t.exposeString("startCursor", { nullable: true }),
    endCursor: t.exposeString("endCursor", { nullable: true }),
  }),
});

// biome-ignore lint/suspicious/noExplicitAny: any Pothos object ref of node type T, whatever its schema types
export function connectionOf<T>(name: string, node: ObjectRef<any, T>) {
  const Edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString("cursor"),
      node: t.field({ type: node, resolve: (e) => e.node as never }),
    }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      edges: t.field({ type: [Edge], resolve: (p) => p.edges }),
      nodes: t.field({ type: [node], resolve: (p) => p.edges.map((e) => e.node) as never }),
      pageInfo: t.field({ type: PageInfo, resolve: (p) => p.pageInfo }),
    }),
  });
}

export type KeyType = "bigint" | "int" | "text";

/**
 * A connection's unique sort key: its columns (most significant first), how a cursor's strings
 * are bound back to each column, and the key values of a row (what its cursor encodes).
 */
export type Keyset<Row> = { columns: AnyColumn[]; types: KeyType[]; of: (row: Row) => (string | number | bigint)[] };

/** The paging arguments of a connection field; one without `orderDirection` is always ascending. */
export type PageArgs = { first?: number | null; after?: string | null; orderDirection?: "ASC" | "DESC" | null };

/** What a connection's fetch runs: its filters and the cursor condition, the key order, `first + 1`. */
export type PageQuery = { where: SQL | undefined; orderBy: SQL[]; limit: number };

/**
 * One page of a keyset connection. `filters` is called after `first` is checked and before the
 * cursor is decoded (so a bad argument fails with the same error as always); `fetch` runs the
 * select on the connection's table.
 */
export async function keysetPage<Row>(
  args: PageArgs,
  key: Keyset<Row>,
  filters: () => (SQL | undefined)[],
  fetch: (q: PageQuery) => PromiseLike<Row[]>,
): Promise<Page<Row>> {
  const first = pageSize(args.first);
  const isDesc = args.orderDirection === "DESC";
  const where = and(...present([...filters(), afterKey(key.columns, args.after, isDesc, key.types)]));
  const orderBy = key.columns.map((c) => (isDesc ? desc(c) : asc(c)));
  const rows = await fetch({ where, orderBy, limit: first + 1 });
  return toPage(rows, first, key.of, !!args.after);
}

/** `(a, b) > (x, y)` (or `<` when descending) for the row key after the cursor. */
export function afterKey(
  columns: SQLWrapper[],
  cursor: string | null | undefined,
  descending: boolean,
  types: KeyType[],
): SQL | undefined {
  const key = decodeCursor(cursor, columns.length);
  if (!key) return undefined;
  const values = key.map((k, i) =>
    types[i] === "text" ? sql`${k}` : types[i] === "int" ? sql`${Number(k)}` : sql`${BigInt(k)}`,
  );
  const cols = sql.join(
    columns.map((c) => sql`${c}`),
    sql`, `,
  );
  const vals = sql.join(values, sql`, `);
  return descending ? sql`(${cols}) < (${vals})` : sql`(${cols}) > (${vals})`;
}

/** Builds the page from `first + 1` fetched rows. */
export function toPage<T>(
  rows: T[],
  first: number,
  keyOf: (row: T) => (string | number | bigint)[],
  hadCursor: boolean,
): Page<T> {
  const edges = rows.slice(0, first).map((node) => ({ cursor: encodeCursor(keyOf(node)), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > first,
      hasPreviousPage: hadCursor,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
