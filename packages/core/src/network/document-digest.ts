/**
 * The network document's fingerprint: SHA-256 of its canonical JSON (keys sorted, compact), the
 * same canonical form the signed artifacts use. Reports and statements name the document they
 * were built with by this digest, so a reader whose document describes another deployment (Base's
 * addresses against a devnet, an outdated copy) is told so before any figure is compared.
 */
import type { Hex } from "viem";
import { attestationHash, canonicalJson } from "../attestation/canonical.js";

export function networkDocumentDigest(doc: unknown): Hex {
  return attestationHash(canonicalJson(doc));
}
