/**
 * Which network to index, and from which documents. Base is the operator's registry file plus our
 * this package's `networks/base/kusd.json`; the devnet writes a whole document (`devnet/network.json`, or
 * wherever KUSD_NETWORK_FILE points). Both go through `networkFromDocument`.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { NetworkConfig } from "@kusd/core";
import type { NetworkDocument, NetworkExtension, OperatorRegistryFile } from "../document.js";
import type { ServiceEnv } from "../env.js";
import { networkFromDocument } from "../from-document.js";
import { readJsonFile } from "./read-json.js";
import { applyRegistrySource } from "./registry-source.js";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BASE_OPERATOR_REGISTRY_FILE = join(PACKAGE, "networks", "base", "operator-deployments-8453.json");
export const BASE_EXTENSION_FILE = join(PACKAGE, "networks", "base", "kusd.json");
/** Where `npm run devnet` writes its document: the repository's devnet/, beside packages/. */
export const DEVNET_NETWORK_FILE = join(PACKAGE, "..", "..", "devnet", "network.json");

/** The network document KUSD_NETWORK (devnet by default) or KUSD_NETWORK_FILE names. */
export function networkDocument(env: ServiceEnv): NetworkDocument {
  const name = env.KUSD_NETWORK;
  if (env.KUSD_NETWORK_FILE) return readJsonFile<NetworkDocument>(env.KUSD_NETWORK_FILE, "network document");
  if (name === "devnet")
    return readJsonFile<NetworkDocument>(DEVNET_NETWORK_FILE, "devnet network document (run `npm run devnet` first)");
  // The operator updates its file; KUSD_OPERATOR_REGISTRY_FILE takes a newer copy without a release.
  const operator = readJsonFile<OperatorRegistryFile>(
    env.KUSD_OPERATOR_REGISTRY_FILE ?? BASE_OPERATOR_REGISTRY_FILE,
    "operator registry file",
  );
  return { ...operator, kusd: readJsonFile<NetworkExtension>(BASE_EXTENSION_FILE, "base network extension") };
}

/** The configuration from the documents alone (no registry source applied). */
export function selectNetwork(env: ServiceEnv): NetworkConfig {
  return networkFromDocument(networkDocument(env), env);
}

/** The configuration with the published registry versions of KUSD_REGISTRY_SOURCE verified and applied. */
export function loadNetwork(env: ServiceEnv): Promise<NetworkConfig> {
  return applyRegistrySource(selectNetwork(env), env);
}
