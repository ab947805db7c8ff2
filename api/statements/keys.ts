/**
 * The operator's signing keys, from the configuration only (KUSD_OPERATOR_PRIVATE_KEY and
 * KUSD_ATTESTATION_PRIVATE_KEY; the devnet runner sets its own keys there). Keys are held as viem
 * accounts and never logged or served; only their addresses leave this module.
 */

import type { ServiceEnv } from "@kusd/config";
import type { NetworkConfig } from "@kusd/core";
import { KusdError } from "@kusd/core";
import { type Address, getAddress, type Hex, type LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export class SigningKeyError extends KusdError<{ key: string; expected?: Address; got?: Address }> {
  override name = "SigningKeyError";
  readonly code: string = "signing_key_invalid";
  constructor(message: string, details: { key: string; expected?: Address; got?: Address }) {
    super(message, details);
  }
}

export type SigningKeys = {
  /** The venue-margin account: signs the binding and every artifact dated before attestationFrom. */
  operator: LocalAccount | null;
  attestation: LocalAccount | null;
  attestationFrom: number;
};

/** `key` is already checked for shape by the environment schema; here only whose it is. */
const account = (name: string, key: Hex | undefined, expected: Address | null): LocalAccount | null => {
  if (!key) return null;
  const a = privateKeyToAccount(key);
  if (expected && getAddress(expected) !== a.address)
    throw new SigningKeyError(`${name} does not belong to the configured signer`, {
      key: name,
      expected,
      got: a.address,
    });
  return a;
};

export function loadSigningKeys(
  network: NetworkConfig,
  e: Pick<ServiceEnv, "KUSD_OPERATOR_PRIVATE_KEY" | "KUSD_ATTESTATION_PRIVATE_KEY">,
): SigningKeys {
  const s = network.reporting.signers;
  return {
    operator: account("KUSD_OPERATOR_PRIVATE_KEY", e.KUSD_OPERATOR_PRIVATE_KEY, s.operator),
    attestation: account("KUSD_ATTESTATION_PRIVATE_KEY", e.KUSD_ATTESTATION_PRIVATE_KEY, s.attestation),
    attestationFrom: s.attestationFrom,
  };
}

/** Spec 2.1 rule 2: artifacts dated before attestationFrom are the operator's, later ones the attestation key's. */
export function signerFor(
  keys: SigningKeys,
  timestamp: number,
): { account: LocalAccount; role: "operator-account" | "attestation-key" } | null {
  if (timestamp < keys.attestationFrom)
    return keys.operator ? { account: keys.operator, role: "operator-account" } : null;
  return keys.attestation ? { account: keys.attestation, role: "attestation-key" } : null;
}
