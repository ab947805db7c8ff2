import { baseNetwork } from "./base.js";
import { devnetNetwork } from "./devnet.js";
import type { NetworkConfig } from "./types.js";

export class UnknownNetworkError extends Error {
  override name = "UnknownNetworkError";
  constructor(readonly network: string) {
    super(`KUSD_NETWORK must be "devnet" or "base", got "${network}"`);
  }
}

/** The deployment to index: KUSD_NETWORK=devnet (default) or base. */
export function selectNetwork(env: NodeJS.ProcessEnv = process.env): NetworkConfig {
  const name = env.KUSD_NETWORK ?? "devnet";
  if (name === "devnet") return devnetNetwork();
  if (name === "base") return baseNetwork(env);
  throw new UnknownNetworkError(name);
}
