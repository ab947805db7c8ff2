/**
 * devnet/deployment.json: what `npm run devnet` deployed and where. Everything downstream
 * (ponder.config.ts, the reports, the registry, the tests) reads addresses, blocks, keys and
 * the operator's account registry configuration from here, never from constants.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RegistryVersionConfig } from "@kusd/core";
import type { Address, Hex } from "viem";

export type {
  DisclosedVenueDepositConfig,
  RegistryEntryConfig,
  RegistryVersionConfig,
} from "@kusd/core";

export const DEFAULT_DEPLOYMENT_PATH = join(resolve(dirname(fileURLToPath(import.meta.url))), "deployment.json");

export const deploymentPath = () => process.env.DEVNET_DEPLOYMENT ?? DEFAULT_DEPLOYMENT_PATH;

export type ContractRecord = {
  address: Address;
  /** Block and unix time of the deployment transaction. */
  block: number;
  timestamp: number;
  /** Solidity contract (devnet/contracts) whose ABI it has. */
  artifact: string;
  creationTx?: Hex;
};

export type ChainRecord = {
  name: "base" | "ethereum";
  chainId: number;
  rpcUrl: string;
  genesisTimestamp: number;
  /** Last block of the scripted history (padding blocks follow it). */
  historyEndBlock: number;
  /** Hash of historyEndBlock: tells a live chain that still holds this history from a new one. */
  historyEndBlockHash: Hex;
  contracts: Record<string, ContractRecord>;
};

export type AccountRecord = { address: Address; privateKey: Hex; label: string };

export type RoleGrantRecord = {
  role: string;
  roleHash: Hex;
  contract: string;
  holder: Address;
  grantedBlock: number;
  revokedBlock: number | null;
};

export type Deployment = {
  schema: "kusd-devnet-deployment/v1";
  createdAt: string;
  scale: number;
  chains: { base: ChainRecord; ethereum: ChainRecord };
  venue: { url: string; hedgeAccount: Address; coin: string; venueIds: { id: string; intervalHours: number }[] };
  /** Devnet keys of every account the history uses (operator accounts and outside parties). */
  accounts: Record<string, AccountRecord>;
  roles: RoleGrantRecord[];
  registry: { operator: Address; versions: RegistryVersionConfig[] };
  signers: { operator: Address; attestation: Address; attestationFrom: number };
  payments: { recipient: Address; facilitator: Address; network: "eip155:8453"; asset: Address; builderCode: string };
  /** Landmark transactions of the story, for tests and reports to find. */
  landmarks: Record<string, { tx: Hex; block: number; timestamp: number }>;
  users: { count: number; firstIndex: number };
};

export function readDeployment(path = deploymentPath()): Deployment {
  if (!existsSync(path)) {
    throw new Error(`no devnet deployment at ${path}: run \`npm run devnet\` first`);
  }
  return JSON.parse(readFileSync(path, "utf8")) as Deployment;
}

export function writeDeployment(deployment: Deployment, path = deploymentPath()): void {
  writeFileSync(path, `${JSON.stringify(deployment, null, 2)}\n`);
}
