/**
 * Micro-measurements of patch effects, on the Ponder of the tree it runs in: run it in a copy with
 * a change reverted and in one with nothing reverted (scripts/prove-patches.ts --exec) and compare.
 * Not a test: it asserts nothing.
 *
 *   npm run test:patches -- --revert queue-fifo --exec -- npx tsx scripts/patch-effects.ts queue
 *   npm run test:patches -- --revert none --exec -- npx tsx scripts/patch-effects.ts queue
 *
 *   queue   100,000 tasks through Ponder's queue as its historical sync puts a block range on it
 *           (all added at once, 100 at a time): milliseconds, best of 3
 *   delete  3,171 DELETEs by key of rows a PGlite table does not hold, as Ponder's indexing cache
 *           sends them (drizzle, `RETURNING`): milliseconds (the number is a backfill's at scale 300)
 *   build   Ponder's build of this project as `ponder start` runs it: milliseconds to execute the
 *           config, schema and indexing files, the CPU the process used from the build's creation
 *           to 1.5 s after they ran, and the file watchers it then holds
 */
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const esm = (path: string) => `file://${join(root, "node_modules", "ponder", "dist", "esm", path)}`;

async function queue(): Promise<string> {
  const { createQueue } = await import(esm("utils/queue.js"));
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const q = createQueue({ browser: false, initialStart: true, concurrency: 100, worker: async (n: number) => n });
    const started = performance.now();
    await Promise.all(Array.from({ length: 100_000 }, (_, i) => q.add(i)));
    runs.push(performance.now() - started);
  }
  return `queue: 100,000 tasks in ${Math.min(...runs).toFixed(0)} ms (runs ${runs.map((ms) => ms.toFixed(0)).join(", ")})`;
}

async function build(): Promise<string> {
  // The Base configuration, whose documents are committed (the devnet's are written by a running
  // devnet); the build reads no chain, so the RPC URLs need not answer.
  process.env.KUSD_NETWORK ??= "base";
  process.env.PONDER_RPC_URL_8453 ??= "http://127.0.0.1:9";
  process.env.PONDER_RPC_URL_1 ??= "http://127.0.0.1:9";
  const { createBuild } = await import(esm("build/index.js"));
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const logger = { ...silent, child: () => logger };
  const stops: Array<() => unknown> = [];
  const options = {
    command: "start",
    rootDir: root,
    configFile: join(root, "ponder.config.ts"),
    schemaFile: join(root, "ponder.schema.ts"),
    apiDir: join(root, "src", "api"),
    apiFile: join(root, "src", "api", "index.ts"),
    indexingDir: join(root, "src"),
    generatedDir: join(root, "generated"),
    ponderDir: join(root, ".ponder"),
  };
  const cpu0 = process.cpuUsage();
  const b = await createBuild({
    common: {
      options,
      logger,
      shutdown: { isKilled: false, add() {} },
      buildShutdown: { add: (s: () => unknown) => stops.push(s) },
    },
    cliOptions: { command: "start" },
  });
  const started = performance.now();
  const results = [await b.executeConfig(), await b.executeSchema(), await b.executeIndexingFunctions()];
  const ms = performance.now() - started;
  const failed = results.find((r: { status: string }) => r.status !== "success");
  // vite's watcher, where there is one, crawls the project in the background after the build starts.
  await new Promise((r) => setTimeout(r, 1_500));
  const cpu = process.cpuUsage(cpu0);
  const watchers = process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
  for (const stop of stops) await stop();
  return `build: config, schema and indexing files executed in ${ms.toFixed(0)} ms${failed ? ` (failed: ${failed.error?.message?.split("\n")[0]})` : ""}; CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms from the build's creation to 1.5 s after; ${watchers} file watchers`;
}

async function deletes(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { pgTable, text, numeric } = await import("drizzle-orm/pg-core");
  const { eq } = await import("drizzle-orm");
  const client = new PGlite();
  try {
    await client.exec(
      "CREATE TABLE violation (id text PRIMARY KEY, amount numeric(78, 0)); INSERT INTO violation SELECT 'k' || g, g FROM generate_series(1, 50000) g;",
    );
    const table = pgTable("violation", { id: text("id").primaryKey(), amount: numeric("amount") });
    const db = drizzle(client);
    const started = performance.now();
    for (let i = 0; i < 3_171; i++)
      await db
        .delete(table)
        .where(eq(table.id, `absent${i}`))
        .returning();
    const ms = performance.now() - started;
    return `delete: 3,171 DELETEs of absent rows in ${ms.toFixed(0)} ms (${(ms / 3_171).toFixed(2)} ms each)`;
  } finally {
    await client.close();
  }
}

const which = process.argv[2];
const measure = { queue, delete: deletes, build }[which as "queue" | "delete" | "build"];
if (!measure) {
  console.error("usage: patch-effects.ts queue|delete|build");
  process.exit(2);
}
console.log(await measure());
process.exit(0);
