/**
 * Verifies a published signed artifact, fail-closed: every check must pass and any malformed
 * input is a failed check, never an exception. Hashes the published bytes as they are.
 */
import { type Address, getAddress, type Hex, isAddress, isHex, recoverMessageAddress } from "viem";
import { attestationHash, canonicalJson } from "./canonical.js";

/** The fields that carry the signature itself; every other top-level field is an unsigned copy. */
const SIGNED_ARTIFACT_FIELDS = new Set(["attestation_hash", "signature", "signer", "signed_payload_canonical"]);

/** How old a signed statement may be (hourly statements: two intervals), unless told otherwise. */
export const STATEMENT_MAX_AGE_SECONDS = 7200;

export type VerifyOptions = {
  /** Signers accepted at the artifact's signed time (from a binding, or pinned by the user). */
  trustedSigner: (signedAt: number) => Address[];
  /**
   * The attestation_hash of the binding the trust came from. An artifact that names the binding
   * it was signed under (`signer_binding_hash`) must name this one; absent (pinned signers): not checked.
   */
  bindingHash?: Hex | null;
  /** Maximum age in seconds, or null to skip the freshness check. */
  maxAgeSeconds: number | null;
  now?: number;
};

export type VerifyResult = {
  verified: boolean;
  checks: { name: string; ok: boolean; detail?: string }[];
  recovered: Address | null;
  signedAt: number | null;
};

export async function verifyArtifact(artifact: unknown, options: VerifyOptions): Promise<VerifyResult> {
  const checks: VerifyResult["checks"] = [];
  const check = (name: string, ok: boolean, detail?: string) => {
    checks.push({ name, ok, ...(detail ? { detail } : {}) });
    return ok;
  };
  const done = (recovered: Address | null, signedAt: number | null): VerifyResult => ({
    verified: checks.length > 0 && checks.every((c) => c.ok),
    checks,
    recovered,
    signedAt,
  });

  const a = (typeof artifact === "object" && artifact !== null ? artifact : {}) as Record<string, unknown>;
  const published = a.signed_payload_canonical;
  if (
    !check(
      "shape",
      typeof published === "string" &&
        isHex(a.attestation_hash) &&
        isHex(a.signature) &&
        typeof a.signer === "string" &&
        isAddress(a.signer),
      "attestation_hash, signature, signer and signed_payload_canonical are required",
    )
  ) {
    return done(null, null);
  }
  const digest = attestationHash(published as string);
  check("hash", digest === (a.attestation_hash as string).toLowerCase(), `sha256(published bytes) = ${digest}`);

  let recovered: Address | null = null;
  try {
    recovered = await recoverMessageAddress({ message: { raw: digest }, signature: a.signature as Hex });
  } catch {
    recovered = null;
  }
  check(
    "signature",
    recovered !== null && recovered === getAddress(a.signer as string),
    `recovered ${recovered ?? "nothing"}`,
  );

  let signedAt: number | null = null;
  let payload: Record<string, unknown> | null = null;
  try {
    payload = JSON.parse(published as string) as Record<string, unknown>;
    signedAt = typeof payload.timestamp === "number" && Number.isFinite(payload.timestamp) ? payload.timestamp : null;
  } catch {
    signedAt = null;
  }
  // A figure beside the signed bytes (aggregate_solvency_ratio, status, ...) is a convenience copy:
  // it is only trustworthy if it equals the signed payload's, so a changed copy fails verification.
  const copies = Object.keys(a).filter((k) => !SIGNED_ARTIFACT_FIELDS.has(k) && payload !== null && k in payload);
  const altered = copies.filter((k) => !sameJson(a[k], payload![k]));
  check(
    "unsigned copies",
    altered.length === 0,
    altered.length
      ? `differs from the signed payload: ${altered.join(", ")}`
      : `${copies.length} top-level field(s) equal the signed payload's`,
  );
  if (!check("signed timestamp", signedAt !== null, "the signed payload must carry a numeric unix timestamp"))
    return done(recovered, null);

  // The binding is named by its hash, not by where it was served: a statement stays verifiable
  // after the site moves, against any copy of the same binding.
  const named = payload?.signer_binding_hash;
  if (typeof named === "string" && options.bindingHash !== undefined) {
    check(
      "binding named",
      options.bindingHash !== null && named.toLowerCase() === options.bindingHash.toLowerCase(),
      `the artifact names binding ${named}; trusted binding ${options.bindingHash ?? "none"}`,
    );
  }
  const trusted = options.trustedSigner(signedAt!).map((s) => getAddress(s));
  check(
    "authorised signer",
    recovered !== null && trusted.includes(recovered),
    `trusted at ${signedAt}: ${trusted.join(", ") || "none"}`,
  );

  if (options.maxAgeSeconds !== null) {
    const now = options.now ?? Math.floor(Date.now() / 1000);
    const age = now - signedAt!;
    check("fresh", age >= -300 && age <= options.maxAgeSeconds, `age ${age} s, limit ${options.maxAgeSeconds} s`);
  }
  return done(recovered, signedAt);
}

/** Where trust comes from: the signers it accepts by signed time, the checks behind it, and the binding's hash. */
export type Trust = {
  trustedSigner: (signedAt: number) => Address[];
  checks: VerifyResult["checks"];
  bindingHash?: Hex | null;
};

/** Trust in fixed signers (`--signer`): nothing to check, no binding. */
export function pinnedTrust(signers: readonly Address[]): Trust {
  const pinned = signers.map((s) => getAddress(s));
  return { trustedSigner: () => pinned, checks: [] };
}

/**
 * The one verification every client runs (kusd-verify, kusd-buy, the page, the gateway before it
 * charges): the trust's own checks first, then the artifact's; verified only if all pass.
 */
export async function verifyTrusted(
  artifact: unknown,
  trust: Trust,
  options: { maxAgeSeconds: number | null; now?: number },
): Promise<VerifyResult> {
  const result = await verifyArtifact(artifact, {
    trustedSigner: trust.trustedSigner,
    bindingHash: trust.bindingHash,
    ...options,
  });
  return {
    ...result,
    verified: result.verified && trust.checks.every((c) => c.ok),
    checks: [...trust.checks, ...result.checks],
  };
}

function sameJson(x: unknown, y: unknown): boolean {
  try {
    return canonicalJson(x) === canonicalJson(y);
  } catch {
    return false; // not JSON (a bigint, a NaN): it cannot equal what was signed
  }
}
