/**
 * Convenience copies published beside a signed payload (status, the headline ratio, where the
 * binding is). A verifier fails an artifact whose copy differs from the signed value, so a copy is
 * only ever taken from the signed bytes, never rebuilt from configuration that may have changed
 * since (another site URL after a restart).
 */
import type { SignedArtifact } from "./sign.js";

/** The four signature fields plus `fields`, each copied from the signed payload when it carries it. */
export function withSignedCopies(
  artifact: SignedArtifact,
  fields: readonly string[],
): SignedArtifact & Record<string, unknown> {
  const payload = JSON.parse(artifact.signed_payload_canonical) as Record<string, unknown>;
  const copies = Object.fromEntries(fields.filter((f) => f in payload).map((f) => [f, payload[f]]));
  return {
    attestation_hash: artifact.attestation_hash,
    signature: artifact.signature,
    signer: artifact.signer,
    ...copies,
    signed_payload_canonical: artifact.signed_payload_canonical,
  };
}
