/**
 * Ponder's indexing store and its cache (indexing-store/), over a query builder that records what
 * it is asked instead of a database:
 *   - pglite-optimistic-insert (patches/README.md): a plain insert on PGlite looks nothing up, as
 *     on PostgreSQL (a key that exists fails the flush);
 *   - cache-keep-small-tables: eviction passes over a table holding under 1/64 of the budget;
 *   - cache-delete-buffered: deleting a row still in the insert buffer of a fully cached table
 *     asks the database nothing.
 */
import { describe, expect, it } from "vitest";

const esm = (path: string) => new URL(`../../node_modules/ponder/dist/esm/${path}`, import.meta.url).href;
const { onchainTable }: { onchainTable: (name: string, columns: (t: any) => object) => object } = await import(
  esm("drizzle/onchain.js")
);
const { createIndexingCache }: { createIndexingCache: (args: object) => IndexingCache } = await import(
  esm("indexing-store/cache.js")
);
const { createIndexingStore }: { createIndexingStore: (args: object) => IndexingStore } = await import(
  esm("indexing-store/index.js")
);

type Key = { table: object; key: object };
type IndexingCache = {
  qb: unknown;
  has: (k: Key) => boolean;
  get: (k: Key) => Promise<object | null>;
  set: (k: Key & { row: object; isUpdate: boolean }) => object;
  delete: (k: Key) => Promise<boolean>;
  flush: () => Promise<void>;
  prefetch: (args: { events: unknown[] }) => Promise<void>;
};
type IndexingStore = {
  qb: unknown;
  isProcessingEvents: boolean;
  db: { insert: (table: object) => { values: (v: object) => Promise<unknown> } };
};

const small = onchainTable("small", (t) => ({ id: t.text().primaryKey(), rate: t.bigint() }));
const big = onchainTable("big", (t) => ({ id: t.text().primaryKey(), memo: t.text() }));
const schema = { small, big };

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const logger = { ...silent, child: () => logger };
const metric = { observe() {}, inc() {} };
const common = (indexingCacheMaxBytes: number) => ({
  logger,
  options: { indexingCacheMaxBytes },
  metrics: {
    ponder_indexing_cache_query_duration: metric,
    ponder_indexing_cache_requests_total: metric,
    ponder_indexing_store_queries_total: metric,
  },
});

/** A query builder that answers every statement with no rows and counts them. */
function recordingQb(dialect: "pglite" | "postgres") {
  const qb = { $dialect: dialect, statements: 0, wrap: async (..._args: unknown[]) => [] as unknown[] };
  qb.wrap = async () => {
    qb.statements++;
    return [];
  };
  return qb;
}

/** A cache of `schema`, complete (a fresh start), with a budget of `budget` bytes. */
function freshCache(budget: number) {
  const cache = createIndexingCache({
    common: common(budget),
    schemaBuild: { schema },
    crashRecoveryCheckpoint: undefined,
    eventCount: {},
    chainId: undefined,
  });
  const qb = recordingQb("postgres");
  cache.qb = qb;
  return { cache, qb };
}

describe("Ponder's indexing store and cache (patched)", () => {
  it("inserts on PGlite without looking the key up", async () => {
    // Keys by id: a row Ponder hands back carries a custom inspect that a failure's message would loop on.
    const lookups: string[] = [];
    const store = createIndexingStore({
      common: common(1 << 20),
      schemaBuild: { schema },
      indexingCache: {
        get: async (k: Key) => {
          lookups.push(String((k.key as { id?: unknown }).id));
          return null;
        },
        set: ({ row }: { row: object }) => row,
        has: () => false,
      },
      indexingErrorHandler: {},
      chainId: undefined,
    });
    store.qb = recordingQb("pglite");
    store.isProcessingEvents = true;
    await store.db.insert(small).values({ id: "a", rate: 1n });
    await store.db.insert(small).values([{ id: "b", rate: 2n }]);
    expect(lookups).toEqual([]);
  });

  it("evicts a large table but keeps one under 1/64 of its budget", async () => {
    const budget = 64 * 1024;
    const { cache } = freshCache(budget);
    cache.set({ table: small, key: { id: "r" }, row: { id: "r", rate: 5n }, isUpdate: false });
    for (let i = 0; i < 20; i++)
      cache.set({ table: big, key: { id: `m${i}` }, row: { id: `m${i}`, memo: "x".repeat(4096) }, isUpdate: false });
    await cache.flush();
    await cache.prefetch({ events: [] });
    // A complete table answers `has` for any key; an evicted one only for what it still holds.
    expect(cache.has({ table: big, key: { id: "none" } }), "the large table was evicted").toBe(false);
    expect(cache.has({ table: small, key: { id: "none" } }), "the small table is still complete").toBe(true);
  });

  it("deletes a row still in the insert buffer without a database statement", async () => {
    const { cache, qb } = freshCache(1 << 20);
    cache.set({ table: small, key: { id: "d" }, row: { id: "d", rate: 1n }, isUpdate: false });
    expect(await cache.delete({ table: small, key: { id: "d" } })).toBe(true);
    expect(qb.statements).toBe(0);
    expect(await cache.get({ table: small, key: { id: "d" } })).toBe(null);
  });
});
