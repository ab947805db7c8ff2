/**
 * Verification on the agent's machine: the trust the agent gave on the command line (the
 * operator account, or one signer), the operator's signer binding read from the API and checked
 * against that account here, and packages/core/src/attestation's verifyTrusted over the artifact. The verdict
 * has the shape of the API's verify_statement answer.
 */

import { pinnedTrust, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
import type { Address, Hex } from "viem";
import type { McpTrust } from "./args.js";

export type Verdict = {
  verified: boolean;
  trust: string;
  attestation_hash: string | null;
  recovered: Address | null;
  signedAt: number | null;
  checks: { name: string; ok: boolean; detail?: string }[];
};

/** The trust to verify with: a pinned signer, or the binding at <api>/api/por/signer-registry signed by the operator. */
export async function localTrust(
  api: string,
  trust: McpTrust,
  fetchImpl: typeof fetch = fetch,
): Promise<Trust & { describe: string }> {
  if ("signer" in trust) return { ...pinnedTrust([trust.signer]), describe: `pinned signer ${trust.signer}` };
  const url = `${api}/api/por/signer-registry`;
  const describe = `signer binding ${url}, signed by operator ${trust.operator} (checked on this machine)`;
  const res = await fetchImpl(url);
  // No attestation key configured: the operator account signs every artifact itself.
  if (res.status === 404)
    return { ...pinnedTrust([trust.operator]), describe: `operator ${trust.operator} (no binding published)` };
  const published = res.ok ? await res.json().catch(() => null) : null;
  // A binding that cannot be read or does not check out leaves no signer that can verify (fail-closed).
  return { ...(await trustFromBinding(published, trust.operator)), describe };
}

export async function verdictOf(
  artifact: unknown,
  trust: Trust & { describe: string },
  maxAgeSeconds: number | null,
): Promise<Verdict> {
  const result = await verifyTrusted(artifact, trust, { maxAgeSeconds });
  const hash = (artifact as { attestation_hash?: unknown } | null)?.attestation_hash;
  return {
    verified: result.verified,
    trust: trust.describe,
    attestation_hash: typeof hash === "string" ? (hash as Hex) : null,
    recovered: result.recovered,
    signedAt: result.signedAt,
    checks: result.checks,
  };
}

/** The verdict in lines a person or a model reads: one per check, then VERIFIED or NOT VERIFIED. */
export function verdictText(v: Verdict): string {
  const lines = v.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  return `${lines.join("\n")}\n${v.verified ? "VERIFIED" : "NOT VERIFIED"} (trust: ${v.trust})`;
}
