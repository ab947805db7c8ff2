/**
 * Process entry of `kusd-doctor` (bin/kusd-doctor.mjs): checks the configured network (KUSD_NETWORK,
 * base for mainnet) against the RPC the indexer will use.
 */

import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import type { NetworkConfig } from "@kusd/core";
import { runDoctorCli } from "./cli.js";
import type { DoctorInput } from "./doctor.js";

/** "wstETH-stETH Exchange Rate" also matches "wstETH / stETH Exchange Rate": separators vary by feed family. */
export function looseDescription(description: string): RegExp {
  const words = description
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^\\s*${words.join("[^A-Za-z0-9]*")}\\s*$`, "i");
}

export function doctorInputOf(network: NetworkConfig): DoctorInput {
  return {
    chainIds: { base: network.chains.base.id, ethereum: network.chains.ethereum.id },
    contracts: network.deployments.map((d) => ({
      name: d.role,
      address: d.address,
      startBlock: d.startBlock,
      creationTx: d.creationTx,
      source: d.source,
    })),
    feeds: Object.entries(network.feeds).map(([name, f]) => ({
      name,
      address: f.address,
      expectDescription: looseDescription(f.description),
      decimals: f.decimals,
      source: f.source,
    })),
    ethGetLogsBlockRange: network.chains.base.ethGetLogsBlockRange,
    anchorSigner: network.reporting.signers.attestation ?? network.reporting.signers.operator,
  };
}

// The doctor checks only the ethereum chain id, and only when given a URL: the configuration's
// requirement of an ethereum read RPC must not stop it.
const loadInput = async (env: NodeJS.ProcessEnv) =>
  doctorInputOf(selectNetwork(readServiceEnv({ KUSD_READ_RPC_URL_1: "http://ethereum.unused.invalid", ...env })));

const { exitCode, output } = await runDoctorCli(
  process.argv.slice(2),
  { KUSD_NETWORK: "base", ...process.env },
  loadInput,
);
process.stdout.write(output);
process.exitCode = exitCode;
