import type { Hex, LocalAccount } from "viem";
import { attestationHash, canonicalJson } from "./canonical.js";

export type SignedArtifact = {
  attestation_hash: Hex;
  signature: Hex;
  signer: `0x${string}`;
  signed_payload_canonical: string;
};

/**
 * Signs `payload` in the operator's scheme. The payload must carry a numeric unix `timestamp`
 * (seconds): freshness is checked from inside the signed bytes, never from an unsigned field.
 */
export async function signPayload(
  account: LocalAccount,
  payload: Record<string, unknown> & { timestamp: number },
): Promise<SignedArtifact> {
  const signed_payload_canonical = canonicalJson(payload);
  const digest = attestationHash(signed_payload_canonical);
  const signature = await account.signMessage({ message: { raw: digest } });
  return { attestation_hash: digest, signature, signer: account.address, signed_payload_canonical };
}
