/**
 * Relay-style connections over keyset pagination: rows are ordered by a unique key (block,
 * log index or id), the cursor is that key, and a page is `first` rows after it. Stable under
 * inserts, and a walk from the start visits every row exactly once.
 */
import type { ObjectRef } from "@pothos/core";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { builder } from "./builder.js";
import { decodeCursor, encodeCursor } from "./inputs.js";

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function connectionOf<T>(name: string, node: ObjectRef<any, T>) {
  const Edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    fields: (t) => ({ cursor: t.exposeString("cursor"), node: t.field({ type: node, resolve: (e) => e.node as never }) }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      edges: t.field({ type: [Edge], resolve: (p) => p.edges }),
      nodes: t.field({ type: [node], resolve: (p) => p.edges.map((e) => e.node) as never }),
      pageInfo: t.field({ type: PageInfo, resolve: (p) => p.pageInfo }),
    }),
  });
}

/** `(a, b) > (x, y)` (or `<` when descending) for the row key after the cursor. */
export function afterKey(columns: SQLWrapper[], cursor: string | null | undefined, desc: boolean, types: ("bigint" | "int" | "text")[]): SQL | undefined {
  const key = decodeCursor(cursor, columns.length);
  if (!key) return undefined;
  const values = key.map((k, i) => (types[i] === "text" ? sql`${k}` : types[i] === "int" ? sql`${Number(k)}` : sql`${BigInt(k)}`));
  const cols = sql.join(columns.map((c) => sql`${c}`), sql`, `);
  const vals = sql.join(values, sql`, `);
  return desc ? sql`(${cols}) < (${vals})` : sql`(${cols}) > (${vals})`;
}

/** Builds the page from `first + 1` fetched rows. */
export function toPage<T>(rows: T[], first: number, keyOf: (row: T) => (string | number | bigint)[], hadCursor: boolean): Page<T> {
  const edges = rows.slice(0, first).map((node) => ({ cursor: encodeCursor(keyOf(node)), node }));
  return {
    edges,
    pageInfo: { hasNextPage: rows.length > first, hasPreviousPage: hadCursor, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}
