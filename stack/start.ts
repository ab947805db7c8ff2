/**
 * `npm start`: the devnet (both chains with their history and the venue simulator), then the
 * indexer and its API over it, in one process until Ctrl-C. Prints where everything is.
 * PORT sets the API port (42069); DATABASE_URL selects PostgreSQL instead of PGlite.
 */
import { startDevnet } from "../devnet/devnet.js";
import { startIndexer } from "./indexer.js";
import { rpcBlockNumber } from "../devnet/rpc.js";
import { devnetPortsFromEnv, parseScale, printDevnet, waitForSignal } from "../devnet/main.js";

async function main() {
  const devnet = await startDevnet({
    ports: devnetPortsFromEnv(),
    scale: parseScale(process.argv.slice(2)),
    log: (line) => console.log(`[devnet] ${line}`),
  });
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
  await waitForSignal();
  await indexer.stop();
  await devnet.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
