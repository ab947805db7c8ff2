/**
 * Brings the devnet up: two anvil chains (8453 "base", 1 "ethereum"), the scripted history,
 * devnet/deployment.json, and the venue simulator. Reuses chains that are already up with the
 * recorded deployment, so running it twice is cheap.
 */
import { existsSync } from "node:fs";
import type { Hex } from "viem";
import { type AnvilHandle, rpcChainId, startAnvil } from "./anvil.js";
import { type Deployment, deploymentPath, readDeployment, writeDeployment } from "./deployment.js";
import { ChainDriver } from "./driver.js";
import { installEas } from "./eas.js";
import { runEthereumHistory } from "./ethereum-history.js";
import { BaseHistory } from "./history.js";
import { namedKeys } from "./keys.js";
import { installMulticall3 } from "./multicall3.js";
import { networkFileOf, writeDevnetServiceFiles } from "./network-document.js";
import { installMessagePasser, installProofSystem } from "./proofs/install.js";
import { type ProofActors, startProofActors } from "./proofs/proposer.js";
import { rpcCall } from "./rpc.js";
import { HISTORY_START } from "./timeline.js";
import { startVenueServer, type VenueServer } from "./venue/server.js";

export const BASE_CHAIN_ID = 8453;
export const ETHEREUM_CHAIN_ID = 1;

export const DEFAULT_PORTS = { base: 8545, ethereum: 8546, venue: 8547 } as const;

export type DevnetOptions = {
  ports?: Partial<Record<keyof typeof DEFAULT_PORTS, number>>;
  scale?: number;
  deploymentFile?: string;
  /** Unix seconds the history must end before; defaults to the wall clock. */
  now?: number;
  /** Reuse chains already running with this deployment (default true). */
  reuse?: boolean;
  log?: (line: string) => void;
};

export type Devnet = {
  deployment: Deployment;
  deploymentFile: string;
  venue: VenueServer | null;
  reused: boolean;
  stop(): Promise<void>;
};

export class DevnetPortInUseError extends Error {
  override name = "DevnetPortInUseError";
  constructor(
    message: string,
    readonly details: { rpcUrl: string; expectedChainId: number; foundChainId: number | null },
  ) {
    super(message);
  }
}

async function blockHash(rpcUrl: string, block: number): Promise<Hex | null> {
  try {
    return (
      (await rpcCall<{ hash: Hex } | null>(rpcUrl, "eth_getBlockByNumber", [`0x${block.toString(16)}`, false]))?.hash ??
      null
    );
  } catch {
    return null;
  }
}

/** True when both chains at the recorded URLs still hold the recorded history. */
async function deploymentIsLive(deployment: Deployment): Promise<boolean> {
  for (const chain of [deployment.chains.base, deployment.chains.ethereum]) {
    if ((await rpcChainId(chain.rpcUrl)) !== chain.chainId) return false;
    if ((await blockHash(chain.rpcUrl, chain.historyEndBlock)) !== chain.historyEndBlockHash) return false;
  }
  return true;
}

async function venueIsUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(500) })).ok;
  } catch {
    return false;
  }
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const ports = { ...DEFAULT_PORTS, ...options.ports };
  const file = options.deploymentFile ?? deploymentPath();
  const log = options.log ?? (() => {});
  const scale = options.scale ?? 1;

  if (options.reuse !== false && existsSync(file)) {
    const existing = readDeployment(file);
    const sameTarget =
      existing.chains.base.rpcUrl === `http://127.0.0.1:${ports.base}` &&
      existing.chains.ethereum.rpcUrl === `http://127.0.0.1:${ports.ethereum}` &&
      existing.scale === scale;
    if (sameTarget && (await deploymentIsLive(existing))) {
      log("chains already up with this deployment: reusing them");
      const venue = (await venueIsUp(existing.venue.url))
        ? null
        : await startVenueServer({ port: ports.venue, hedgeAccount: existing.venue.hedgeAccount });
      await writeDevnetServiceFiles(existing, file);
      return { deployment: existing, deploymentFile: file, venue, reused: true, stop: async () => venue?.close() };
    }
  }

  const anvils: AnvilHandle[] = [];
  let venue: VenueServer | null = null;
  let proofActors: ProofActors | null = null;
  const stop = async () => {
    await proofActors?.stop();
    await venue?.close();
    await Promise.all(anvils.map((a) => a.stop()));
  };
  try {
    for (const [name, chainId] of [
      ["base", BASE_CHAIN_ID],
      ["ethereum", ETHEREUM_CHAIN_ID],
    ] as const) {
      const rpcUrl = `http://127.0.0.1:${ports[name]}`;
      const found = await rpcChainId(rpcUrl);
      if (found !== null) {
        throw new DevnetPortInUseError(
          `port ${ports[name]} already serves a chain that does not hold this deployment`,
          {
            rpcUrl,
            expectedChainId: chainId,
            foundChainId: found,
          },
        );
      }
      anvils.push(await startAnvil({ port: ports[name], chainId, timestamp: HISTORY_START }));
      log(`${name}: anvil (chain ${chainId}) on ${rpcUrl}`);
    }
    // Base has Multicall3 at its canonical address long before the protocol, and EAS and the
    // L2ToL1MessagePasser as predeploys: so does this chain.
    await installMulticall3(anvils[0]!.rpcUrl);
    await installEas(anvils[0]!.rpcUrl);
    await installMessagePasser(anvils[0]!.rpcUrl);
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const baseDriver = new ChainDriver(anvils[0]!.rpcUrl, HISTORY_START + 2);
    const ethDriver = new ChainDriver(anvils[1]!.rpcUrl, HISTORY_START + 12, 12);
    const started = Date.now();
    const history = new BaseHistory(baseDriver, BASE_CHAIN_ID, { scale, now, log });
    const [base, ethereum] = await Promise.all([history.run(), runEthereumHistory(ethDriver, now)]);
    log(`history played in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Base's output roots go to Ethereum: the dispute game factory and its registry on the ethereum chain.
    const proofSystem = await installProofSystem({ ethereum: anvils[1]!.rpcUrl, base: anvils[0]!.rpcUrl });

    const keys = namedKeys();
    const accounts = Object.fromEntries(
      Object.entries(keys).map(([name, k]) => [name, { address: k.address, privateKey: k.privateKey, label: k.label }]),
    );
    const venueUrl = `http://127.0.0.1:${ports.venue}`;
    const deployment: Deployment = {
      schema: "kusd-devnet-deployment/v1",
      createdAt: new Date().toISOString(),
      scale,
      chains: {
        base: {
          name: "base",
          chainId: BASE_CHAIN_ID,
          rpcUrl: anvils[0]!.rpcUrl,
          genesisTimestamp: HISTORY_START,
          historyEndBlock: base.historyEndBlock,
          historyEndBlockHash: (await blockHash(anvils[0]!.rpcUrl, base.historyEndBlock))!,
          contracts: base.contracts,
        },
        ethereum: {
          name: "ethereum",
          chainId: ETHEREUM_CHAIN_ID,
          rpcUrl: anvils[1]!.rpcUrl,
          genesisTimestamp: HISTORY_START,
          historyEndBlock: ethereum.historyEndBlock,
          historyEndBlockHash: (await blockHash(anvils[1]!.rpcUrl, ethereum.historyEndBlock))!,
          contracts: { ...ethereum.contracts, ...proofSystem },
        },
      },
      venue: {
        url: venueUrl,
        hedgeAccount: keys.operator.address,
        coin: "ETH",
        venueIds: [
          { id: "HlPerp", intervalHours: 1 },
          { id: "BinPerp", intervalHours: 8 },
        ],
      },
      accounts,
      roles: base.roles,
      registry: base.registry,
      signers: base.signers,
      payments: {
        recipient: keys.paymentRecipient.address,
        facilitator: keys.facilitator.address,
        network: "eip155:8453",
        asset: base.contracts.usdc!.address,
        builderCode: "kusd-devnet",
      },
      landmarks: base.landmarks,
      users: base.users,
    };
    writeDeployment(deployment, file);
    await writeDevnetServiceFiles(deployment, file);
    log(`deployment written to ${file} (network document: ${networkFileOf(file)})`);
    venue = await startVenueServer({ port: ports.venue, hedgeAccount: deployment.venue.hedgeAccount });
    log(`venue simulator on ${venue.url}`);
    proofActors = startProofActors({ ethereumRpcUrl: anvils[1]!.rpcUrl, baseRpcUrl: anvils[0]!.rpcUrl, log });
    return { deployment, deploymentFile: file, venue, reused: false, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
