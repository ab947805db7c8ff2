/**
 * Crash recovery of the indexer: `kill -9` of `ponder start` in the middle of its backfill, then
 * a restart on the same database, ends with every table row for row equal to a clean run over the
 * same chain (a SHA-256 of each table's rows, sorted), on PGlite and on PostgreSQL.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@ponder/client";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import * as schema from "../../ponder.schema.js";
import { startIndexer, type Indexer } from "../../stack/indexer.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const dir = mkdtempSync(join(tmpdir(), "kusd-crash-"));
const running: Indexer[] = [];
afterAll(async () => {
  await Promise.all(running.map((i) => i.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const tables = Object.entries(schema).filter(([, t]) => is(t, PgTable)) as [string, PgTable][];

/** One indexer over the shared devnet, in its own database (a PGlite directory or a PostgreSQL schema). */
async function indexer(name: string, onSpawn?: Parameters<typeof startIndexer>[0]["onSpawn"]) {
  const sqlPort = await freePort();
  const started = await startIndexer({
    port: await freePort(),
    deploymentFile: inject("deploymentFile"),
    databaseUrl: process.env.DATABASE_URL,
    pgliteDir: join(dir, name),
    schema: `kusd_${name}_${process.pid}`,
    viewsSchema: `kusd_${name}_views_${process.pid}`,
    env: { KUSD_PRIVATE_SQL_PORT: String(sqlPort), KUSD_STORE_DIR: join(dir, `${name}-store`), KUSD_STORE_SCHEMA: `kusd_${name}_store_${process.pid}` },
    onSpawn,
  });
  running.push(started);
  return { indexer: started, db: createClient(`http://127.0.0.1:${sqlPort}/sql`, { schema }).db };
}

/** SHA-256 of every table's rows (bigints as decimal strings), sorted, so row order does not matter. */
async function checksums(db: ReturnType<typeof createClient>["db"]) {
  const out: Record<string, string> = {};
  for (const [name, table] of tables) {
    const rows = (await db.select().from(table as never)) as Record<string, unknown>[];
    const lines = rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v))).sort();
    out[name] = `${rows.length}:${createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16)}`;
  }
  return out;
}

describe("indexer crash recovery", () => {
  it("kill -9 in the middle of the backfill, restart: every table equals a clean run's", async () => {
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    // 1. Start, and kill -9 during the backfill: once the API answers and /ready still says the
    //    historical backfill is not complete (part-way through the chain when /status shows it).
    let killedAt: number | null = null;
    let killed = false;
    const crashed = indexer("crashed", (child) => {
      const base = `http://127.0.0.1:${child.spawnargs[child.spawnargs.indexOf("--port") + 1]}`;
      let upSince = 0;
      const timer = setInterval(async () => {
        try {
          const [status, ready] = await Promise.all([fetch(`${base}/status`).then((r) => r.json() as Promise<Record<string, { block: { number: number } | null }>>), fetch(`${base}/ready`).then((r) => r.status)]);
          if (ready === 200 || killed) return;
          upSince ||= Date.now();
          const at = status.base?.block?.number ?? null;
          if ((at !== null && at >= head / 4) || Date.now() - upSince > 300) {
            killed = true;
            killedAt = at;
            child.kill("SIGKILL");
            clearInterval(timer);
          }
        } catch {
          // not listening yet
        }
      }, 20);
      child.once("exit", () => clearInterval(timer));
    });
    await expect(crashed).rejects.toThrow(/exited/);
    expect(killed, "killed before the backfill was complete").toBe(true);
    // 2. Restart on the same database; 3. a clean run beside it.
    const restarted = await indexer("crashed");
    const clean = await indexer("clean");
    await restarted.indexer.waitForBlock("base", head);
    await clean.indexer.waitForBlock("base", head);
    const [a, b] = await Promise.all([checksums(restarted.db), checksums(clean.db)]);
    console.log(`[crash] killed during the backfill (base checkpoint ${killedAt ?? "none yet"} of ${head}); ${Object.keys(a).length} tables compared: ${JSON.stringify(a)}`);
    expect(Object.values(b).some((c) => !c.startsWith("0:"))).toBe(true);
    expect(a).toEqual(b);
  }, 400_000);
});
