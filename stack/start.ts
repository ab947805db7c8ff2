/**
 * `npm start`: the devnet (both chains with their history and the venue simulator), then the
 * indexer and its API over it, in one process until Ctrl-C. Prints where everything is.
 * PORT sets the API port (42069); DATABASE_URL selects PostgreSQL instead of PGlite.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { readRunnerEnv, readServiceEnv } from "@kusd/config";
import { startDevnet } from "../devnet/devnet.js";
import { devnetPorts, parseScale, printDevnet } from "../devnet/main.js";
import { rpcBlockNumber } from "../devnet/rpc.js";
import { dropSchemas, startIndexer } from "./indexer.js";
import { monitorBeside } from "./monitor.js";
import { buildPage } from "./page-build.js";

/**
 * What has been started so far, stopped in reverse on SIGINT or SIGTERM, whenever it arrives:
 * during startup too (Node's default action would exit without running any cleanup and leave
 * `ponder start` and anvil running on their ports). A second signal exits at once; the children
 * still alive are then killed by the exit handlers of anvil.ts and indexer.ts. One Ctrl-C reaches
 * this process more than once (the terminal signals the whole group, and npm relays it too): a
 * repeat within a second is that same Ctrl-C, not a second one. It runs as `node --import tsx`,
 * not under the tsx CLI: that relays signals too, and SIGKILLs a child that does not acknowledge
 * one within 30 ms, which left anvil state directories behind when cleanup was busy.
 */
const started: { stop(): Promise<void> }[] = [];
let stoppingSince: number | null = null;
const SAME_SIGNAL_MS = 1_000;
async function shutdown(signal: NodeJS.Signals) {
  if (stoppingSince !== null) {
    if (Date.now() - stoppingSince < SAME_SIGNAL_MS) return;
    process.exit(130);
  }
  stoppingSince = Date.now();
  console.log(`\n${signal}: stopping`);
  for (const s of started.reverse()) await s.stop().catch((e: unknown) => console.error(e));
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

/**
 * `kill <pid of npm start>` ends npm without passing the signal on to its script (npm 11), and
 * the shell between npm and this process stays alive: so the processes above this one are
 * watched, and when one is gone everything stops as if signalled. Ctrl-C reaches the whole group.
 */
const ancestors = [process.ppid, parentOf(process.ppid)].filter((pid): pid is number => pid !== null && pid > 1);
setInterval(() => {
  if (stoppingSince === null && ancestors.some((pid) => !isAlive(pid))) void shutdown("SIGTERM");
}, 1_000).unref();

function parentOf(pid: number): number | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after the ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null; // not Linux: only the direct parent is watched
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The runner's own environment, parsed once; the service parses its own in its process.
const serviceEnv = readServiceEnv(process.env);
const runnerEnv = readRunnerEnv(process.env);

async function main() {
  const port = serviceEnv.PORT ?? 42069;
  const apiUrl = `http://127.0.0.1:${port}`;
  const monitor = runnerEnv.KUSD_MONITOR_CONFIG
    ? monitorBeside({
        configFile: runnerEnv.KUSD_MONITOR_CONFIG,
        apiUrl,
        env: process.env,
        log: (line) => console.log(`[monitor] ${line}`),
      })
    : null;
  // A configuration the monitor would refuse stops `npm start` before anything is started.
  await monitor?.check();
  // The page builds beside the devnet and the indexer (about 2 s of CPU the devnet's history
  // leaves idle): it is read from disk per request, and awaited before "services" is printed.
  const page = buildPage(serviceEnv.KUSD_PAGE_DIR ? resolve(serviceEnv.KUSD_PAGE_DIR) : undefined);
  page.catch(() => {}); // its failure surfaces where it is awaited
  const devnet = await startDevnet({
    ports: devnetPorts(runnerEnv),
    scale: parseScale(process.argv.slice(2)),
    log: (line) => console.log(`[devnet] ${line}`),
  });
  started.push(devnet);
  console.log(`[indexer] ponder start on ${serviceEnv.DATABASE_URL ? "PostgreSQL" : "PGlite (.ponder/pglite)"}`);
  const indexer = await startIndexer({
    port,
    deploymentFile: devnet.deploymentFile,
    databaseUrl: serviceEnv.DATABASE_URL,
    onOutput: (line) => (runnerEnv.KUSD_VERBOSE || worthShowing(line)) && console.log(`[indexer] ${line}`),
  }).catch(async (error) => {
    await devnet.stop();
    throw error;
  });
  // Every run indexes a new devnet into a schema of its own: once stopped, nothing reads it again.
  // The operator store's schema (signed statements) and Ponder's RPC cache stay, by design.
  const databaseUrl = serviceEnv.DATABASE_URL;
  if (databaseUrl) started.push({ stop: () => dropSchemas(databaseUrl, [indexer.schema, indexer.viewsSchema]) });
  started.push(indexer);
  // Only base is indexed (the ethereum devnet holds no protocol contract; instant reads ask it
  // directly): waiting for an ethereum block here would wait forever.
  const base = devnet.deployment.chains.base;
  await indexer.waitForBlock(base.name, await rpcBlockNumber(base.rpcUrl), 300_000);
  await page;
  const status = await indexer.status();
  if (monitor) started.push(monitor.start());

  console.log("\nservices:");
  printDevnet(devnet, (line) => console.log(`  ${line}`));
  console.log(
    `  page      ${indexer.url}/  (the reserves page: figures, chart, the statement verified in your browser)`,
  );
  console.log(`  api       ${indexer.url}  (/health, /ready, /status, /api/openapi.json, /graphql)`);
  for (const path of ["/api/por", "/api/stats", "/api/por/signed", "/api/por/signer-registry"])
    console.log(`            ${indexer.url}${path}`);
  console.log(`  database  schema ${indexer.schema}, views in schema ${indexer.viewsSchema}`);
  for (const [chain, s] of Object.entries(status))
    console.log(`  indexed   ${chain} at block ${s.block?.number ?? "-"}`);
  if (monitor) console.log(`  monitor   kusd-monitor --config ${runnerEnv.KUSD_MONITOR_CONFIG} (its lines: [monitor])`);
  console.log("\nCtrl-C stops everything this command started");
  await new Promise(() => {}); // until a signal: shutdown() stops everything and exits
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * Without KUSD_VERBOSE, the indexer's own log stays quiet except what an operator must see: Ponder's
 * warnings and errors (JSON lines, level 40 and up), and every line that is not Ponder's (the API's
 * `[api] <requestId> …` behind a 500, `[statements]`, `[paid]`), so a requestId can be looked up.
 */
function worthShowing(line: string): boolean {
  if (!line.startsWith("{")) return true;
  try {
    return ((JSON.parse(line) as { level?: unknown }).level as number) >= 40;
  } catch {
    return true;
  }
}
