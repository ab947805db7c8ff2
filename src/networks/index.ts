/**
 * Which network to index, and from which documents. Base is the operator's registry file plus our
 * `networks/base/kusd.json`; the devnet writes a whole document (`devnet/network.json`, or
 * wherever KUSD_NETWORK_FILE points). Both go through `networkFromDocument`.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { NetworkDocumentError, readJsonFile, type NetworkDocument, type NetworkExtension, type OperatorRegistryFile } from "./document.js";
import { networkFromDocument } from "./from-document.js";
import { applyRegistrySource } from "./registry-source.js";
import type { NetworkConfig } from "../../core/network/types.js";

export class UnknownNetworkError extends NetworkDocumentError {
  override name = "UnknownNetworkError";
  override readonly code: string = "unknown_network";
  constructor(readonly network: string) {
    super(`KUSD_NETWORK must be "devnet" or "base", got "${network}"`, { network });
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BASE_OPERATOR_REGISTRY_FILE = join(ROOT, "networks", "base", "operator-deployments-8453.json");
export const BASE_EXTENSION_FILE = join(ROOT, "networks", "base", "kusd.json");
export const DEVNET_NETWORK_FILE = join(ROOT, "devnet", "network.json");

/** The network document KUSD_NETWORK (devnet by default) or KUSD_NETWORK_FILE names. */
export function networkDocument(env: NodeJS.ProcessEnv = process.env): NetworkDocument {
  const name = env.KUSD_NETWORK ?? "devnet";
  if (name !== "devnet" && name !== "base") throw new UnknownNetworkError(name);
  if (env.KUSD_NETWORK_FILE) return readJsonFile<NetworkDocument>(env.KUSD_NETWORK_FILE, "network document");
  if (name === "devnet") return readJsonFile<NetworkDocument>(DEVNET_NETWORK_FILE, "devnet network document (run `npm run devnet` first)");
  // The operator updates its file; KUSD_OPERATOR_REGISTRY_FILE takes a newer copy without a release.
  const operator = readJsonFile<OperatorRegistryFile>(env.KUSD_OPERATOR_REGISTRY_FILE ?? BASE_OPERATOR_REGISTRY_FILE, "operator registry file");
  return { ...operator, kusd: readJsonFile<NetworkExtension>(BASE_EXTENSION_FILE, "base network extension") };
}

/** The configuration from the documents alone (no registry source applied). */
export function selectNetwork(env: NodeJS.ProcessEnv = process.env): NetworkConfig {
  return networkFromDocument(networkDocument(env), env);
}

let loaded: Promise<NetworkConfig> | null = null;

/**
 * The configuration with the published registry versions of KUSD_REGISTRY_SOURCE verified and
 * applied. Cached per process: the indexer's config, its handlers and its API share one answer.
 */
export function loadNetwork(env: NodeJS.ProcessEnv = process.env): Promise<NetworkConfig> {
  if (env !== process.env) return applyRegistrySource(selectNetwork(env), env);
  loaded ??= applyRegistrySource(selectNetwork(env), env);
  return loaded;
}
