/**
 * The operator's signing scheme for published artifacts: a canonical JSON string (keys sorted
 * at every depth, compact separators), hashed as UTF-8 bytes with SHA-256; the EIP-191
 * signature is over the raw 32 digest bytes. The exact string hashed is published, so a
 * verifier hashes those bytes and never re-serialises.
 */
import { type Hex, sha256, stringToBytes } from "viem";
import { KusdError } from "../errors.js";

export class CanonicalJsonError extends KusdError<{ path: string }> {
  override name = "CanonicalJsonError";
  readonly code: string = "canonical_json_refused";
  constructor(message: string, details: { path: string }) {
    super(message, details);
  }
}

/** JSON with keys sorted and no whitespace. Refuses values JSON cannot carry exactly. */
export function canonicalJson(value: unknown, path = "$"): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new CanonicalJsonError("non-finite number", { path });
    return JSON.stringify(value);
  }
  if (typeof value === "bigint") throw new CanonicalJsonError("bigint: publish it as a decimal string", { path });
  if (Array.isArray(value)) return `[${value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, `${path}.${k}`)}`).join(",")}}`;
  }
  throw new CanonicalJsonError(`cannot serialise ${typeof value}`, { path });
}

/** `attestation_hash`: 0x + SHA-256 of the UTF-8 bytes of the published string. */
export function attestationHash(publishedString: string): Hex {
  // viem's SHA-256, not node:crypto: the reserves page runs this same check in the browser.
  return sha256(stringToBytes(publishedString));
}
