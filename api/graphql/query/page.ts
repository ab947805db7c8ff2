/**
 * One Relay page of any entity: `first`/`after` forwards, `last`/`before` backwards (both cursors
 * may bound one window), `first + 1` rows fetched so hasNextPage (or hasPreviousPage backwards) is
 * known without another statement. The other side of pageInfo and `totalCount` are exact but cost
 * a statement each, so they run only when asked for (the resolvers call them lazily).
 */
import { and, type SQL, sql } from "drizzle-orm";
import type { ReadDb } from "../../io/indexed-reads.js";
import type { Row, RowSource } from "./entity.js";
import { beyond, cursorOf, decodeCursor, type Ordering, orderTerms, type Position } from "./order.js";
import { invalid, overLimit } from "./query-error.js";

export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 50;

export type PageArgs = {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
};

/** What a page is read from: the rows of `source` meeting `where`, sorted by `ordering`. */
export type EntityQuery = { source: RowSource; where: SQL | undefined; ordering: Ordering };

export type Lazy<T> = () => Promise<T>;

export type Page<T> = {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: Lazy<boolean>;
    hasPreviousPage: Lazy<boolean>;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: Lazy<number>;
};

/** A page size from `first` or `last`: 1 to MAX_PAGE (DEFAULT_PAGE when neither is given). */
export function pageWindow(args: PageArgs): { size: number; backward: boolean } {
  if (args.first != null && args.last != null) throw invalid("last", "give first or last, not both");
  const backward = args.last != null;
  const name = backward ? "last" : "first";
  const n = (backward ? args.last : args.first) ?? DEFAULT_PAGE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
    throw overLimit(name, `${name} must be between 1 and ${MAX_PAGE}`, MAX_PAGE);
  return { size: n, backward };
}

const once = <T>(f: () => Promise<T>): Lazy<T> => {
  let kept: Promise<T> | undefined;
  return () => (kept ??= f());
};

export async function entityPage(db: ReadDb, q: EntityQuery, args: PageArgs): Promise<Page<Row>> {
  const { size, backward } = pageWindow(args);
  const o = q.ordering;
  const src = q.source;
  const after = args.after == null ? null : decodeCursor(o, args.after, "after");
  const before = args.before == null ? null : decodeCursor(o, args.before, "before");
  const base = [src.where, q.where];
  const window = and(
    ...base,
    after ? beyond(o, src, after, "after") : undefined,
    before ? beyond(o, src, before, "before") : undefined,
  );
  const rows = await db
    .select()
    .from(src.from)
    .where(window)
    .orderBy(...orderTerms(o, src, backward))
    .limit(size + 1);
  const more = rows.length > size;
  const kept = rows.slice(0, size);
  if (backward) kept.reverse();
  const exists = (condition: SQL) =>
    once(async () => {
      const found = await db
        .select({ one: sql`1` })
        .from(src.from)
        .where(and(...base, condition))
        .limit(1);
      return found.length > 0;
    });
  const known =
    (v: boolean): Lazy<boolean> =>
    () =>
      Promise.resolve(v);
  // Past the window: rows at or before `after`, at or after `before`.
  const beforeWindow = (p: Position | null) => (p ? exists(beyond(o, src, p, "before", true)) : known(false));
  const afterWindow = (p: Position | null) => (p ? exists(beyond(o, src, p, "after", true)) : known(false));
  const edges = kept.map((node) => ({ cursor: cursorOf(o, node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: backward || !more ? afterWindow(before) : known(true),
      hasPreviousPage: !backward || !more ? beforeWindow(after) : known(true),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: once(async () => {
      const [row] = await db
        .select({ n: sql`count(*)` })
        .from(src.from)
        .where(and(...base));
      return Number(row?.n ?? 0);
    }),
  };
}
