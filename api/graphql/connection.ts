/**
 * Relay connection types: `edges`, `nodes`, `pageInfo` and `totalCount` over a page read by
 * query/page.ts. The exact `hasPreviousPage`/`hasNextPage` on the side a page did not read, and
 * `totalCount`, each cost a statement: they are resolved (and run) only when selected.
 */
import type { ObjectRef } from "@pothos/core";
import { builder } from "./builder.js";
import type { Page } from "./query/page.js";

export type { Page };

/**
 * The Graph's `asc`/`desc`; `ASC`/`DESC` (this API's first spelling) stay accepted and mean the
 * same, deprecated so tools steer new queries to the lowercase form.
 */
export const OrderDirection = builder.enumType("OrderDirection", {
  values: {
    asc: { value: "asc" },
    desc: { value: "desc" },
    ASC: { value: "ASC", deprecationReason: "Use asc (The Graph's spelling); ASC keeps working." },
    DESC: { value: "DESC", deprecationReason: "Use desc (The Graph's spelling); DESC keeps working." },
  } as const,
});

const PageInfo = builder.objectRef<Page<unknown>["pageInfo"]>("PageInfo").implement({
  fields: (t) => ({
    hasNextPage: t.boolean({
      description: "Rows matching the filters follow this page (exact; before a `before` cursor it costs a statement)",
      resolve: (p) => p.hasNextPage(),
    }),
    hasPreviousPage: t.boolean({
      description: "Rows matching the filters precede this page (exact; after an `after` cursor it costs a statement)",
      resolve: (p) => p.hasPreviousPage(),
    }),
    startCursor: t.exposeString("startCursor", { nullable: true }),
    endCursor: t.exposeString("endCursor", { nullable: true }),
  }),
});

// biome-ignore lint/suspicious/noExplicitAny: any Pothos object ref of node type T, whatever its schema types
export function connectionOf<T>(name: string, node: ObjectRef<any, T>) {
  const Edge = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`).implement({
    fields: (t) => ({
      cursor: t.exposeString("cursor"),
      node: t.expose("node", { type: node }),
    }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      edges: t.field({ type: [Edge], resolve: (p) => p.edges }),
      nodes: t.field({ type: [node], resolve: (p) => p.edges.map((e) => e.node) }),
      pageInfo: t.field({ type: PageInfo, resolve: (p) => p.pageInfo }),
      totalCount: t.int({
        description:
          "Rows matching `where` (and `block`), whatever the page: one count statement, run only when selected",
        resolve: (p) => p.totalCount(),
      }),
    }),
  });
}
