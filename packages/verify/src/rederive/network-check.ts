/**
 * Before any figure is compared: does the reader's network document describe the chain their RPC
 * serves? A document of another deployment (Base's addresses against a devnet, an outdated copy)
 * would make every figure "differ" and read as fraud; it is a wrong input, said as such (exit 2),
 * naming the flag that fixes it. Checked in order of cost: the digest the report or statement
 * names, the chain id, code at the contracts every report reads, the addresses the report itself
 * carries.
 */
import { KusdError, type NetworkConfig } from "@kusd/core";
import type { Address, Hex, PublicClient } from "viem";
import { hasCodeAt } from "../read-plan/code-presence.js";

export type NetworkMismatchDetails = { network: string; expected?: string; found?: string };

export class NetworkMismatchError extends KusdError<NetworkMismatchDetails> {
  override name = "NetworkMismatchError";
  readonly code: string = "network_mismatch";
}

export type NetworkClaims = {
  /** The digest of the network document the report or statement says it was built with. */
  documentSha256?: Hex | null;
  /** The chain id it says it is about. */
  chainId?: number | null;
  /** Contract addresses the document itself carries (each must be one the network document names). */
  addresses?: readonly Address[];
};

const FIX =
  "pass --network with the document the service publishes at /api/network (compare it with the operator's own registry file first), or an RPC of the chain it describes";

/** The contracts every report reads: no code at any of them means the document is another deployment's. */
function coreContracts(n: NetworkConfig): [string, Address][] {
  return [
    ["kUSD", n.kUSD.address],
    ...Object.entries(n.psms).map(([k, d]): [string, Address] => [k, d.address]),
    ["skUSD", n.stakingVaults.skUSD.address],
  ];
}

const failWith =
  (networkName: string) =>
  (message: string, d: Omit<NetworkMismatchDetails, "network"> = {}): never => {
    throw new NetworkMismatchError(`${message}: ${FIX}`, { network: networkName, ...d });
  };

/** What needs no chain: the document the report names, and the chain it says it is about. */
export function checkNetworkDocument(network: NetworkConfig, networkName: string, claims: NetworkClaims): void {
  const fail = failWith(networkName);
  if (claims.documentSha256 && claims.documentSha256.toLowerCase() !== network.documentSha256.toLowerCase())
    fail(
      `it was built with network document sha256 ${claims.documentSha256}; the network document here (${networkName}) is sha256 ${network.documentSha256}`,
      { expected: claims.documentSha256, found: network.documentSha256 },
    );
  const expectedChain = claims.chainId ?? network.chains.base.id;
  if (expectedChain !== network.chains.base.id)
    fail(
      `it is about chain ${expectedChain}; the network document here (${networkName}) is for chain ${network.chains.base.id}`,
    );
}

export async function checkNetwork(
  client: PublicClient,
  network: NetworkConfig,
  networkName: string,
  block: bigint,
  claims: NetworkClaims = {},
): Promise<void> {
  const fail = failWith(networkName);
  checkNetworkDocument(network, networkName, claims);
  const chainId = await client.getChainId().catch(() => null);
  if (chainId !== null && chainId !== network.chains.base.id)
    fail(
      `the RPC serves chain ${chainId}; the network document here (${networkName}) is for chain ${network.chains.base.id}`,
      {
        expected: String(network.chains.base.id),
        found: String(chainId),
      },
    );
  const missing: string[] = [];
  for (const [role, address] of coreContracts(network)) {
    const deployedBy = network.deployments.find((d) => d.address.toLowerCase() === address.toLowerCase())?.startBlock;
    if (deployedBy !== undefined && BigInt(deployedBy) > block) continue;
    if ((await hasCodeAt(client, address, block)) === false) missing.push(`${role} ${address}`);
  }
  if (missing.length > 0)
    fail(
      `the RPC's chain has no contract at ${missing.join(", ")} at block ${block}: the network document here (${networkName}) describes another deployment`,
    );
  const known = new Set(knownAddresses(network));
  const foreign = (claims.addresses ?? []).filter((a) => !known.has(a.toLowerCase()));
  if (foreign.length > 0)
    fail(
      `it names contracts the network document here (${networkName}) does not: ${[...new Set(foreign)].slice(0, 5).join(", ")}`,
    );
}

/** Every address the network document names, lower case. */
function knownAddresses(n: NetworkConfig): string[] {
  const r = n.reporting;
  return [
    ...n.deployments.map((d) => d.address),
    n.kUSD.address,
    n.usdc.address,
    n.weth.address,
    ...Object.values(n.psms).map((d) => d.address),
    ...Object.values(n.stakingVaults).map((d) => d.address),
    ...Object.values(n.depositVaults).map((d) => d.address),
    ...Object.values(n.lending).map((d) => d.address),
    ...Object.values(n.lsts).map((l) => l.address),
    ...Object.values(n.feeds).map((f) => f.address),
    ...n.otherOperatorContracts,
    ...n.registryAccounts,
    r.multisig,
    r.treasury,
    r.insuranceFund,
    r.operator,
    r.venue.account,
    ...[r.timelock, r.hedgeWatchOnly, r.incentiveEscrow, r.ethUsdFeed, r.signers.attestation].filter(
      (a): a is Address => a !== null,
    ),
  ].map((a) => a.toLowerCase());
}
