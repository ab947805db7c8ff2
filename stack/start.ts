/**
 * `npm start`: the devnet (both chains with their history and the venue simulator), then the
 * indexer and its API over it, in one process until Ctrl-C. Prints where everything is.
 * PORT sets the API port (42069); DATABASE_URL selects PostgreSQL instead of PGlite.
 */
import { startDevnet } from "../devnet/devnet.js";
import { startIndexer } from "./indexer.js";
import { rpcBlockNumber } from "../devnet/rpc.js";
import { devnetPortsFromEnv, parseScale, printDevnet } from "../devnet/main.js";

/**
 * What has been started so far, stopped in reverse on SIGINT or SIGTERM, whenever it arrives:
 * during startup too (Node's default action would exit without running any cleanup and leave
 * `ponder start` and anvil running on their ports). A second signal exits at once; the children
 * still alive are then killed by the exit handlers of anvil.ts and indexer.ts.
 */
const started: { stop(): Promise<void> }[] = [];
let stopping = false;
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) process.exit(130);
  stopping = true;
  console.log(`\n${signal}: stopping`);
  for (const s of started.reverse()) await s.stop().catch((e: unknown) => console.error(e));
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

async function main() {
  const devnet = await startDevnet({
    ports: devnetPortsFromEnv(),
    scale: parseScale(process.argv.slice(2)),
    log: (line) => console.log(`[devnet] ${line}`),
  });
  started.push(devnet);
  const port = Number(process.env.PORT ?? 42069);
  console.log(`[indexer] ponder start on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite (.ponder/pglite)"}`);
  const indexer = await startIndexer({
    port,
    deploymentFile: devnet.deploymentFile,
    databaseUrl: process.env.DATABASE_URL,
    onOutput: (line) => process.env.KUSD_VERBOSE && console.log(`[indexer] ${line}`),
  }).catch(async (error) => {
    await devnet.stop();
    throw error;
  });
  started.push(indexer);
  for (const chain of [devnet.deployment.chains.base, devnet.deployment.chains.ethereum]) {
    await indexer.waitForBlock(chain.name, await rpcBlockNumber(chain.rpcUrl), 300_000);
  }
  const status = await indexer.status();

  console.log("\nservices:");
  printDevnet(devnet, (line) => console.log(`  ${line}`));
  console.log(`  api       ${indexer.url}  (/health, /ready, /status, /api/openapi.json, /graphql)`);
  for (const path of ["/api/por", "/api/stats", "/api/por/signed", "/api/por/signer-registry"]) console.log(`            ${indexer.url}${path}`);
  console.log(`  database  schema ${indexer.schema}, views in schema ${indexer.viewsSchema}`);
  for (const [chain, s] of Object.entries(status)) console.log(`  indexed   ${chain} at block ${s.block?.number ?? "-"}`);
  console.log("\nCtrl-C stops everything this command started");
  await new Promise(() => {}); // until a signal: shutdown() stops everything and exits
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
