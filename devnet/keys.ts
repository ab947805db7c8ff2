/**
 * Deterministic devnet keys. Every account the scripted history uses is derived from a label,
 * so addresses are the same on every machine and tests can sign as any of them.
 * These keys guard nothing but a local chain; never fund them anywhere else.
 */
import { type Hex, keccak256, stringToHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";

export type DevnetKey = { label: string; address: `0x${string}`; privateKey: Hex };

export function devnetKey(label: string): DevnetKey {
  const privateKey = keccak256(stringToHex(`kusd-devnet:${label}`));
  return { label, address: privateKeyToAddress(privateKey), privateKey };
}

/** Ordinary users are numbered; their labels never collide with named accounts. */
export function userKey(index: number): DevnetKey {
  return devnetKey(`user:${index}`);
}

/** Operator-controlled EOAs and the outside parties the history needs. */
export const KEY_LABELS = {
  deployer: "deployer",
  /** The operator's account: venue margin, strategist of vault v1, signer of early statements. */
  operator: "operator:venue-margin",
  attestationSigner: "operator:attestation-signer",
  hedgeWatchOnly: "operator:hedge-base-watch-only",
  safeOwner2: "operator:safe-owner-2",
  safeOwner3: "operator:safe-owner-3",
  oracleKeeper: "operator:lst-oracle-keeper",
  paymentRecipient: "operator:x402-recipient",
  facilitator: "operator:x402-facilitator",
  /** Circle's stand-in: deploys USDC and WETH and runs the USDC faucet. */
  circle: "external:usdc-issuer",
  venueOperator: "venue:operator",
  lendingGovernor: "external:lending-market-curator",
  externalRedeemer: "external:redeemer",
  externalDustHolder: "external:deprecated-vault-holder",
  /** An outside WETH depositor of vault v1 who leaves through the withdrawal queue. */
  vaultDepositor: "external:vault-v1-depositor",
  /** An outside desk that walks the live PSM's fee ladder at every tier boundary. */
  ladderWalker: "external:fee-ladder-walker",
  arbitrageur: "external:flash-arbitrageur",
  borrower: "external:lending-borrower",
  unlistedRecipient: "external:unlisted-recipient",
  agent: "external:x402-agent",
} as const;

export type KeyName = keyof typeof KEY_LABELS;

export function namedKeys(): Record<KeyName, DevnetKey> {
  return Object.fromEntries(Object.entries(KEY_LABELS).map(([name, label]) => [name, devnetKey(label)])) as Record<
    KeyName,
    DevnetKey
  >;
}
