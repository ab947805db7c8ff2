/**
 * Crash recovery of the indexer: `kill -9` of `ponder start` in the middle of its backfill, then
 * a restart on the same database, ends with every table row for row equal to a clean run over the
 * same chain (a SHA-256 of each table's rows, sorted), on PGlite and on PostgreSQL.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { IndexerOptions } from "../../stack/indexer.js";
import { ownIndexers, tableChecksums } from "../helpers/own-indexer.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const own = ownIndexers("crash");
afterAll(() => own.cleanup());
const indexer = (name: string, onSpawn?: IndexerOptions["onSpawn"]) => own.start(name, { onSpawn });

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
          const [status, ready] = await Promise.all([
            fetch(`${base}/status`).then(
              (r) => r.json() as Promise<Record<string, { block: { number: number } | null }>>,
            ),
            fetch(`${base}/ready`).then((r) => r.status),
          ]);
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
    const [a, b] = await Promise.all([tableChecksums(restarted.db), tableChecksums(clean.db)]);
    console.log(
      `[crash] killed during the backfill (base checkpoint ${killedAt ?? "none yet"} of ${head}); ${Object.keys(a).length} tables compared: ${JSON.stringify(a)}`,
    );
    expect(Object.values(b).some((c) => !c.startsWith("0:"))).toBe(true);
    expect(a).toEqual(b);
  }, 400_000);
});
