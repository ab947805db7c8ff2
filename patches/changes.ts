/**
 * Every change the patch files make to the engine, the diff hunks it consists of (named as in
 * scripts/patch-hunks.ts: the file after `node_modules/` and the hunk's first line in the published
 * file), and the tests that pass with it and fail without it. patches/README.md says what each does
 * and why; `npm run test:patches` (scripts/prove-patches.ts) reverts each in a copy of the tree and
 * runs its tests there; scripts/prove-patches.test.ts checks that every hunk of every patch file
 * belongs to exactly one change.
 */
export type ChangeTest = {
  /** `unit` runs in a second, `e2e` starts a devnet and an indexer (minutes). */
  project: "unit" | "e2e";
  file: string;
  /** The test's own name (`it(...)`), exactly. */
  name: string;
};

export type Change = {
  id: string;
  /** One line: what it changes. */
  summary: string;
  hunks: string[];
  tests: ChangeTest[];
};

const ponder = (file: string, line: number) => `ponder/dist/esm/${file}@-${line}`;

export const changes: Change[] = [
  {
    id: "queue-fifo",
    summary: "Ponder's queue dequeues in constant time (a FIFO instead of Array#shift)",
    hunks: [ponder("utils/queue.js", 10)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/queue-fifo.test.ts",
        name: "takes each task off a backlog of 100,000 without moving the rest (no Array#shift of it)",
      },
    ],
  },
  {
    id: "realtime-lagging-head",
    summary: "a head at or below the local one is a lagging node while a hash we indexed still holds",
    hunks: [ponder("sync-realtime/index.js", 890)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/realtime-sync.test.ts",
        name: "takes a head behind its own for a lagging node while the RPC still serves its head",
      },
      {
        project: "e2e",
        file: "test/e2e/lagging-rpc.test.ts",
        name: "is not taken for a reorg: nothing goes backwards, nothing is retracted, every row equals the chain",
      },
    ],
  },
  {
    id: "realtime-block-announce",
    summary: "each block joining the local chain is announced on the process (`ponder:block`)",
    hunks: [ponder("sync-realtime/index.js", 788)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/realtime-sync.test.ts",
        name: "announces each block joining its chain on the process (`ponder:block`)",
      },
    ],
  },
  {
    id: "realtime-retry-failed-head",
    summary: "a head whose fetch failed is fetched again when it comes again, not taken for a duplicate",
    hunks: [ponder("sync-realtime/index.js", 907)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/realtime-sync.test.ts",
        name: "fetches a head again when it comes again after its fetch failed: a quiet chain does not leave the indexer behind",
      },
    ],
  },
  {
    id: "rpc-poll-beside-ws",
    summary: "the head is polled beside a WebSocket subscription",
    hunks: [ponder("rpc/index.js", 506), ponder("rpc/index.js", 533)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/rpc-subscribe.test.ts",
        name: "gets the head by polling too, while the socket announces nothing",
      },
    ],
  },
  {
    id: "server-hooks",
    summary: "the API file's `serverMiddleware` runs before Ponder's routes; `onHttpServer` gets the Node server",
    hunks: [
      ponder("build/index.js", 228),
      ponder("build/index.js", 379),
      ponder("server/index.js", 41),
      ponder("server/index.js", 110),
    ],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/server-hooks.test.ts",
        name: "runs the API's serverMiddleware before its own routes and gives onHttpServer its Node server",
      },
      {
        project: "unit",
        file: "src/engine-patches/build.test.ts",
        name: "carries the API file's serverMiddleware and onHttpServer to the server",
      },
    ],
  },
  {
    id: "build-lean-vite",
    summary: "vite watches no files outside `ponder dev` and leaves every package to Node",
    hunks: [ponder("build/index.js", 71)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/build.test.ts",
        name: "leaves packages to Node and watches no files outside ponder dev",
      },
    ],
  },
  {
    id: "indexing-ignores-tests",
    summary: "`*.test.*` files under src/ are not executed as indexing code",
    hunks: [ponder("build/index.js", 161)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/build.test.ts",
        name: "does not execute a test file beside the indexing code",
      },
    ],
  },
  {
    id: "pglite-one-open",
    summary: "a PGlite directory is opened once a start: handed over, lent to the diagnostic, taken by the database",
    hunks: [ponder("build/index.js", 509), ponder("utils/pglite.js", 11)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/build.test.ts",
        name: "borrows a PGlite handed over for its directory: no second open, left open",
      },
      {
        project: "unit",
        file: "src/schema-holder/pglite-handoff.test.ts",
        name: "is lent to the diagnostic, then taken by the database: one open; Ponder opens its own after, or for another directory",
      },
    ],
  },
  {
    id: "pglite-batch-commit",
    summary: "on PGlite a backfill batch's rows and its checkpoint commit in one transaction",
    hunks: [
      ponder("runtime/multichain.js", 18),
      ponder("runtime/multichain.js", 211),
      ponder("runtime/multichain.js", 231),
    ],
    tests: [
      {
        project: "e2e",
        file: "test/e2e/crash-recovery.test.ts",
        name: "kill -9 in the middle of the backfill, restart: every table equals a clean run's",
      },
    ],
  },
  {
    id: "pglite-optimistic-insert",
    summary: "a plain insert on PGlite looks nothing up, as on PostgreSQL",
    hunks: [ponder("indexing-store/index.js", 259), ponder("indexing-store/index.js", 293)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/indexing-store.test.ts",
        name: "inserts on PGlite without looking the key up",
      },
    ],
  },
  {
    id: "cache-keep-small-tables",
    summary: "the indexing cache never evicts a table holding under 1/64 of its budget",
    hunks: [ponder("indexing-store/cache.js", 535)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/indexing-store.test.ts",
        name: "evicts a large table but keeps one under 1/64 of its budget",
      },
    ],
  },
  {
    id: "cache-delete-buffered",
    summary: "deleting a row still in the insert buffer of a fully cached table asks the database nothing",
    hunks: [ponder("indexing-store/cache.js", 283)],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/indexing-store.test.ts",
        name: "deletes a row still in the insert buffer without a database statement",
      },
    ],
  },
  {
    id: "drizzle-is-cache",
    summary: "drizzle's `is(value, type)` keeps its answer per prototype",
    hunks: ["drizzle-orm/entity.js@-1"],
    tests: [
      {
        project: "unit",
        file: "src/engine-patches/drizzle-is.test.ts",
        name: "walks a value's prototype chain once per prototype, not on every call",
      },
    ],
  },
];
