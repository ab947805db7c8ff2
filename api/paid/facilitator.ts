/**
 * The x402 facilitator: in process against the configured chain by default (its gas-paying key
 * from configuration), or a remote facilitator by URL in production.
 */

import { countedHttp } from "@kusd/rpc";
import { x402Facilitator } from "@x402/core/facilitator";
import { type FacilitatorClient, HTTPFacilitatorClient } from "@x402/core/server";
import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, type Hex, publicActions, type VerifyTypedDataParameters } from "viem";
import { nonceManager, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

export type FacilitatorConfig =
  | { kind: "local"; rpcUrl: string; privateKey: Hex; network: `${string}:${string}`; pollingIntervalMs?: number }
  | { kind: "http"; url: string };

export function createFacilitatorClient(config: FacilitatorConfig): FacilitatorClient {
  if (config.kind === "http") return new HTTPFacilitatorClient({ url: config.url });
  // viem's nonce manager hands concurrent settlements consecutive nonces from one gas key (and
  // resets after a failed send), so settlements no longer wait for each other.
  const account = privateKeyToAccount(config.privateKey, { nonceManager });
  // Receipts are polled every 250 ms by default (viem's default for Base is 4 s, which would hold
  // every paid response that long after its settlement landed); the devnet mines at once.
  const client = createWalletClient({
    account,
    chain: base,
    transport: countedHttp(config.rpcUrl, "paid settlement"),
    pollingInterval: config.pollingIntervalMs ?? 250,
  }).extend(publicActions);
  // The viem wallet client, extended with public actions, is the signer shape x402 expects, but
  // for verifyTypedData: x402 types its arguments loosely (records), viem by the typed data.
  const signer = toFacilitatorEvmSigner(
    Object.assign(client, {
      address: account.address,
      verifyTypedData: (args: Parameters<FacilitatorEvmSigner["verifyTypedData"]>[0]) =>
        client.verifyTypedData(args as VerifyTypedDataParameters),
    }),
  );
  const facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: config.network });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported(),
  } as FacilitatorClient;
}
