/**
 * An indexer of a test's own over the shared devnet, in its own database (a PGlite directory or
 * a PostgreSQL schema) and operator store, restartable on the same database by name; and a
 * checksum of every indexed table, to compare two runs row for row.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@ponder/client";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { inject } from "vitest";
import * as schema from "../../ponder.schema.js";
import { type Indexer, type IndexerOptions, startIndexer } from "../../stack/indexer.js";
import { freePort } from "./ports.js";

export type OwnIndexer = {
  indexer: Indexer;
  db: ReturnType<typeof createClient>["db"];
  /** Where its operator store lives: a PGlite directory, or a schema of DATABASE_URL. */
  store: { databaseUrl?: string; directory: string; schema: string };
  /** Its PGlite directory (null on PostgreSQL): a test may open it once the indexer is stopped. */
  pgliteDir: string | null;
};

/** A scratch directory and the indexers started in it; `cleanup` stops them and removes it. */
export function ownIndexers(prefix: string) {
  // Made at the first start: a file whose tests are all skipped (e.g. on the PostgreSQL pass) runs
  // no afterAll, and a directory made at import time was left behind empty.
  let made: string | null = null;
  const scratch = () => (made ??= mkdtempSync(join(tmpdir(), `kusd-${prefix}-`)));
  const running: Indexer[] = [];
  /** Starts (or restarts, with the same `name`) an indexer on the database and store called `name` (on `databaseUrl` if given, else the run's database). */
  async function start(
    name: string,
    options: {
      env?: NodeJS.ProcessEnv;
      onSpawn?: IndexerOptions["onSpawn"];
      onOutput?: IndexerOptions["onOutput"];
      readyTimeoutMs?: number;
      databaseUrl?: string;
    } = {},
  ): Promise<OwnIndexer> {
    const dir = scratch();
    const sqlPort = await freePort();
    const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
    const store = { databaseUrl, directory: join(dir, `${name}-store`), schema: `kusd_${name}_store_${process.pid}` };
    const started = await startIndexer({
      port: await freePort(),
      deploymentFile: inject("deploymentFile"),
      databaseUrl,
      pgliteDir: join(dir, name),
      schema: `kusd_${name}_${process.pid}`,
      viewsSchema: `kusd_${name}_views_${process.pid}`,
      env: {
        KUSD_PRIVATE_SQL_PORT: String(sqlPort),
        KUSD_STORE_DIR: store.directory,
        KUSD_STORE_SCHEMA: store.schema,
        ...options.env,
      },
      onSpawn: options.onSpawn,
      onOutput: options.onOutput,
      readyTimeoutMs: options.readyTimeoutMs,
    });
    running.push(started);
    return {
      indexer: started,
      db: createClient(`http://127.0.0.1:${sqlPort}/sql`, { schema }).db,
      store,
      pgliteDir: databaseUrl ? null : join(dir, name),
    };
  }
  async function cleanup() {
    await Promise.all(running.map((i) => i.stop()));
    if (made) rmSync(made, { recursive: true, force: true });
  }
  return { start, cleanup };
}

const tables = Object.entries(schema).filter(([, t]) => is(t, PgTable)) as [string, PgTable][];

/** `rows:sha256-prefix` of every indexed table (bigints as decimal strings), sorted, so row order does not matter. */
export async function tableChecksums(db: OwnIndexer["db"]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, table] of tables) {
    const rows = (await db.select().from(table as never)) as Record<string, unknown>[];
    const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v))).sort();
    out[name] = `${rows.length}:${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16)}`;
  }
  return out;
}

/** What checksumsAtOneHead needs of an indexer: its tables, and a wait for a block (the shared stack's too). */
type Indexed = { db: OwnIndexer["db"]; indexer: Pick<OwnIndexer["indexer"], "waitForBlock"> };

/**
 * The checksums of indexers of the shared devnet at one head. Other test files mine on it
 * meanwhile (the stack anchors its statements on Base), and each indexer follows the chain, so
 * checksums taken at once can straddle a block: a share price interval block is a row in one and
 * not yet in another (seen in CI, rpc-storm: sharePrice 93 against 95). All are waited to the
 * chain's head, checksummed, and the head read again: if the chain moved, once more.
 */
export async function checksumsAtOneHead<T extends Indexed[]>(
  chainHead: () => Promise<bigint>,
  ...indexed: T
): Promise<{ [K in keyof T]: Record<string, string> }> {
  for (let attempt = 1; ; attempt++) {
    const head = Number(await chainHead());
    await Promise.all(indexed.map((x) => x.indexer.waitForBlock("base", head)));
    const sums = await Promise.all(indexed.map((x) => tableChecksums(x.db)));
    if (Number(await chainHead()) === head || attempt === 20) return sums as { [K in keyof T]: Record<string, string> };
  }
}
