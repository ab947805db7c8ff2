/**
 * `npm start`: everything a fresh machine needs, in one process, until Ctrl-C. Today that is
 * the devnet (both chains with their history and the venue simulator); the indexer and the
 * API join it here as they land.
 */
import { startDevnet } from "./devnet.js";
import { devnetPortsFromEnv, parseScale, printDevnet, waitForSignal } from "./main.js";

async function main() {
  const devnet = await startDevnet({
    ports: devnetPortsFromEnv(),
    scale: parseScale(process.argv.slice(2)),
    log: (line) => console.log(`[devnet] ${line}`),
  });
  console.log("\nservices:");
  printDevnet(devnet, (line) => console.log(`  ${line}`));
  console.log("\nCtrl-C stops everything this command started");
  await waitForSignal();
  await devnet.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
