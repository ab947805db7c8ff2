/**
 * Runs the indexer and its API (`ponder start`) as a child process: a fresh database schema
 * per run (Ponder locks a schema while it runs) and a stable views schema for readers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { serviceEnvSchema } from "@kusd/config";
import postgres from "postgres";
import { stopProcess } from "../devnet/anvil.js";
import { deploymentPath, readDeployment } from "../devnet/deployment.js";
import { devnetServiceEnv } from "../devnet/network-document.js";

const require = createRequire(import.meta.url);

export type IndexerOptions = {
  port: number;
  /** The devnet to index (default $DEVNET_DEPLOYMENT or devnet/deployment.json), unless `network` is set. */
  deploymentFile?: string;
  /** Index a network from `env` alone (e.g. KUSD_NETWORK=base with its RPC URLs), not a devnet. */
  network?: "env";
  /** Unset: PGlite (in `pgliteDir`, or Ponder's default .ponder/pglite). */
  databaseUrl?: string;
  pgliteDir?: string;
  schema?: string;
  viewsSchema?: string;
  env?: NodeJS.ProcessEnv;
  /** Ponder project directory (default: this repository's root). */
  root?: string;
  onOutput?: (line: string) => void;
  /** Called with the `ponder start` process as soon as it is spawned (crash tests kill it mid-backfill). */
  onSpawn?: (child: ChildProcess) => void;
  /** How long `ponder start` may take to be ready (its backfill done); benchmarks raise it. */
  readyTimeoutMs?: number;
  /** Extra node flags for the ponder process (e.g. --cpu-prof for a profile). */
  nodeArgs?: string[];
};

export type ChainStatus = Record<string, { id: number; block: { number: number; timestamp: number } | null }>;

export type Indexer = {
  url: string;
  schema: string;
  viewsSchema: string;
  process: ChildProcess;
  status(): Promise<ChainStatus>;
  /** Resolves once `chain` is indexed up to `block`. */
  waitForBlock(chain: string, block: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
};

export class IndexerStartError extends Error {
  override name = "IndexerStartError";
  constructor(
    message: string,
    readonly details: { output: string },
  ) {
    // The cause is in Ponder's last lines; a CI log shows the message, not the details.
    super(`${message}\n--- ponder's last output ---\n${details.output.slice(-3_000)}`);
  }
}

const root = join(dirname(require.resolve("../package.json")));
// ponder's package.json is not exported; its bin lives at a fixed place in node_modules.
const ponderBin = () => join(root, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");

/**
 * Ponder's indexing cache budget (it reads PONDER_CACHE_BYTES): KUSD_INDEXING_CACHE_MB, 32 by
 * default, unless PONDER_CACHE_BYTES itself is set. The handlers look few rows up and only insert
 * the rest, so a cache sized from the heap held rows nothing reads again (docs/benchmarks.md).
 */
export function indexingCacheBytes(env: NodeJS.ProcessEnv): string {
  if (env.PONDER_CACHE_BYTES !== undefined) return env.PONDER_CACHE_BYTES;
  const mb = serviceEnvSchema.shape.KUSD_INDEXING_CACHE_MB.parse(env.KUSD_INDEXING_CACHE_MB || undefined) ?? 32;
  return String(mb * 1024 * 1024);
}

/**
 * V8 heap sizing of the indexer+API process. Left alone, V8 lets the old space grow far past
 * what is live before a major GC: under 20 clients of reports the process went from 700 MB to
 * 1.2–1.4 GB of RSS. A bounded old space (KUSD_MAX_OLD_SPACE_MB, 512 MB) holds it near what is
 * live, and a 32 MB semi-space keeps short-lived response garbage out of the old space.
 */
export function heapFlags(env: NodeJS.ProcessEnv): string[] {
  // Only this variable: the service itself checks (and reports) the rest of its environment.
  const oldSpace = serviceEnvSchema.shape.KUSD_MAX_OLD_SPACE_MB.parse(env.KUSD_MAX_OLD_SPACE_MB || undefined) ?? 512;
  return [`--max-old-space-size=${oldSpace}`, "--max-semi-space-size=32"];
}

/** Starts `ponder start` over the devnet recorded in `deploymentFile` (or $DEVNET_DEPLOYMENT). */
export async function startIndexer(options: IndexerOptions): Promise<Indexer> {
  const schema = options.schema ?? `kusd_${Date.now().toString(36)}_${process.pid}`;
  const viewsSchema = options.viewsSchema ?? "kusd";
  const deploymentFile = options.network ? null : (options.deploymentFile ?? deploymentPath());
  const d = deploymentFile ? readDeployment(deploymentFile) : null;
  const env: NodeJS.ProcessEnv = {
    // Node (>= 22.1) keeps V8's compiled code of the ~2,800 modules `ponder start` loads: a restart
    // after a crash compiled them all again (Node 24, 9 restarts each at the head: 10.2 s of CPU
    // to /ready against 11.0 s, 7.8 s wall against 8.7 s). Node 20 ignores it.
    NODE_COMPILE_CACHE: join(root, "node_modules", ".cache", "node-compile"),
    ...process.env,
    ...(d && deploymentFile && devnetServiceEnv(d, deploymentFile)),
    ...options.env,
    PONDER_TELEMETRY_DISABLED: "true",
    // The API builds its site URL (canonicalEndpoint, the binding's URL) from PORT: the same port as --port.
    PORT: String(options.port),
    ...(options.pgliteDir && { PONDER_PGLITE_DIR: options.pgliteDir }),
  };
  env.PONDER_CACHE_BYTES = indexingCacheBytes(env);
  // A devnet's chain ids collide with an earlier devnet's rows in the same database: the config
  // keeps them only while they are this chain's (src/schema-holder/sync-cache.ts).
  if (options.databaseUrl) {
    env.DATABASE_URL = options.databaseUrl;
  } else {
    delete env.DATABASE_URL;
  }

  const child = spawn(
    process.execPath,
    [
      ...heapFlags(env),
      ...(options.nodeArgs ?? []),
      ponderBin(),
      "start",
      "--schema",
      schema,
      "--views-schema",
      viewsSchema,
      "--port",
      String(options.port),
      "--log-format",
      "json",
    ],
    { cwd: options.root ?? root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  options.onSpawn?.(child);
  let output = "";
  const onData = (d: Buffer) => {
    output = (output + d).slice(-20_000);
    for (const line of String(d).split("\n")) if (line.trim()) options.onOutput?.(line);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // Killed with us, and forgotten once gone: a bench starts dozens (one listener each warned at 11).
  const killWithUs = () => child.kill("SIGKILL");
  process.once("exit", killWithUs);
  void exited.then(() => process.off("exit", killWithUs));

  const url = `http://127.0.0.1:${options.port}`;
  const status = async (): Promise<ChainStatus> => (await fetch(`${url}/status`)).json() as Promise<ChainStatus>;
  const indexer: Indexer = {
    url,
    schema,
    viewsSchema,
    process: child,
    status,
    async waitForBlock(chain, block, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new IndexerStartError("indexer exited", { output });
        try {
          const s = await status();
          if ((s[chain]?.block?.number ?? -1) >= block) return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new IndexerStartError(`indexer did not reach ${chain} block ${block} in ${timeoutMs} ms`, { output });
    },
    stop: () => stopProcess(child),
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 180_000;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const done = await Promise.race([
      exited.then(() => "exited" as const),
      new Promise((r) => setTimeout(r, 250)).then(() => "tick" as const),
    ]);
    if (done === "exited") throw new IndexerStartError("ponder start exited before it was ready", { output });
    try {
      if ((await fetch(`${url}/ready`)).status === 200) return indexer;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await indexer.stop();
      throw new IndexerStartError(`ponder start was not ready within ${readyTimeoutMs / 1000} s`, { output });
    }
  }
}

/** Drops `schemas` (a run's Ponder schema and its views) from the PostgreSQL at `databaseUrl`. */
export async function dropSchemas(databaseUrl: string, schemas: string[]): Promise<void> {
  const sql = postgres(databaseUrl, { onnotice: () => {}, max: 1 });
  try {
    for (const schema of schemas) await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
