/**
 * `npm run devnet [-- --scale N]`: both chains, the history and the venue simulator, until
 * Ctrl-C. Ports: DEVNET_BASE_PORT (8545), DEVNET_ETHEREUM_PORT (8546), DEVNET_VENUE_PORT (8547).
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type RunnerEnv, readRunnerEnv } from "@kusd/config";
import { DEFAULT_PORTS, type Devnet, startDevnet } from "./devnet.js";

/** The devnet's ports from the runners' configuration (DEVNET_*_PORT), the defaults where unset. */
export function devnetPorts(env: Pick<RunnerEnv, "DEVNET_BASE_PORT" | "DEVNET_ETHEREUM_PORT" | "DEVNET_VENUE_PORT">) {
  return {
    base: env.DEVNET_BASE_PORT ?? DEFAULT_PORTS.base,
    ethereum: env.DEVNET_ETHEREUM_PORT ?? DEFAULT_PORTS.ethereum,
    venue: env.DEVNET_VENUE_PORT ?? DEFAULT_PORTS.venue,
  };
}

export function parseScale(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { scale: { type: "string" } }, strict: false });
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (!Number.isFinite(scale) || scale <= 0)
    throw new Error(`--scale must be a positive number, got ${String(values.scale)}`);
  return scale;
}

export function printDevnet(devnet: Devnet, print: (line: string) => void = console.log) {
  const { deployment: d } = devnet;
  print(
    `base      ${d.chains.base.rpcUrl}  (chain ${d.chains.base.chainId}, history to block ${d.chains.base.historyEndBlock})`,
  );
  print(
    `ethereum  ${d.chains.ethereum.rpcUrl}  (chain ${d.chains.ethereum.chainId}, history to block ${d.chains.ethereum.historyEndBlock})`,
  );
  print(`venue     ${d.venue.url}/info  (Hyperliquid info API simulator)`);
  print(`addresses ${devnet.deploymentFile}`);
}

export async function waitForSignal(): Promise<void> {
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
}

async function main() {
  const devnet = await startDevnet({
    ports: devnetPorts(readRunnerEnv(process.env)),
    scale: parseScale(process.argv.slice(2)),
    log: (line) => console.log(`[devnet] ${line}`),
  });
  printDevnet(devnet);
  if (devnet.reused && !devnet.venue) {
    console.log("everything was already running; nothing to stop");
    return;
  }
  console.log("Ctrl-C stops what this command started");
  await waitForSignal();
  await devnet.stop();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
