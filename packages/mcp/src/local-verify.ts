/**
 * Verification on the agent's machine: the trust the agent gave on the command line (the
 * operator account, or one signer), the operator's signer binding read from the API and checked
 * against that account here, and packages/core/src/attestation's verifyTrusted over the artifact.
 * With an RPC the agent names, kusd-verify runs here over the artifact with the same trust
 * (`--signer`, or `--binding` with `--operator`) and the agent's sources (`--rpc`, `--venue`, and
 * `--l1-rpc`, `--l1-block-hash`): every signed figure re-derived, and with an Ethereum RPC the
 * statement's block proven from the roots Base posts on Ethereum. The verdict has the shape of the
 * API's verify_statement answer, with `status` and, with an Ethereum RPC, `ethereum`.
 */

import { pinnedTrust, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
import type { Address, Hex } from "viem";
import type { FigureRow } from "../../verify/src/node.js";
import type { McpTrust } from "./args.js";
import {
  type Ethereum,
  type L1Source,
  runVerifier,
  statusWord,
  type VerdictStatus,
  verifierArgs,
} from "./verify-inputs.js";

type Check = { name: string; ok: boolean; detail?: string };

export type Verdict = {
  verified: boolean;
  trust: string;
  attestation_hash: string | null;
  recovered: Address | null;
  signedAt: number | null;
  checks: Check[];
  /** verify_statement's: verified, pending on Ethereum (kusd-verify's exit 3), or not verified. */
  status?: VerdictStatus;
  /** With an RPC: each signed figure, published and re-derived. */
  figures?: FigureRow[];
  /** With an Ethereum RPC: the statement's block proven from Ethereum, pending, or why not. */
  ethereum?: Ethereum;
};

/** Whom to trust, as read from the API now: signers pinned on the command line, or the published binding's text. */
type TrustSource = { describe: string } & ({ signers: Address[] } | { bindingText: string | null; operator: Address });

async function trustSourceOf(api: string, trust: McpTrust, fetchImpl: typeof fetch): Promise<TrustSource> {
  if ("signer" in trust) return { signers: [trust.signer], describe: `pinned signer ${trust.signer}` };
  const url = `${api}/api/por/signer-registry`;
  const res = await fetchImpl(url);
  // No attestation key configured: the operator account signs every artifact itself.
  if (res.status === 404)
    return { signers: [trust.operator], describe: `operator ${trust.operator} (no binding published)` };
  return {
    // A binding that cannot be read or does not check out leaves no signer that can verify (fail-closed).
    bindingText: res.ok ? await res.text().catch(() => null) : null,
    operator: trust.operator,
    describe: `signer binding ${url}, signed by operator ${trust.operator} (checked on this machine)`,
  };
}

/** The trust to verify with: a pinned signer, or the binding at <api>/api/por/signer-registry signed by the operator. */
export async function localTrust(
  api: string,
  trust: McpTrust,
  fetchImpl: typeof fetch = fetch,
): Promise<Trust & { describe: string }> {
  const source = await trustSourceOf(api, trust, fetchImpl);
  if ("signers" in source) return { ...pinnedTrust(source.signers), describe: source.describe };
  let published: unknown = null;
  try {
    published = source.bindingText === null ? null : JSON.parse(source.bindingText);
  } catch {
    published = null;
  }
  return { ...(await trustFromBinding(published, source.operator)), describe: source.describe };
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

/** The reader's sources for a statement's figures: a Base RPC, a venue, and an Ethereum RPC (trust only Ethereum). */
export type StatementSources = { rpc: string; venue: string | null; l1: L1Source | null };

export type StatementVerifier = (
  artifact: unknown,
  maxAgeSeconds: number | null,
  sources: StatementSources,
) => Promise<Verdict>;

/**
 * verify_statement with an RPC: `kusd-verify <artifact> --signer … | --binding … --operator …
 * --rpc … [--l1-rpc … [--l1-block-hash …]] --json`, run here over the artifact and the binding as
 * read here, with the network document kusd-mcp was started with. A source that does not answer
 * (kusd-verify's exit 2) throws: a tool error, nothing judged.
 */
export function localStatementVerifier(
  api: string,
  trust: McpTrust,
  networkFile: string | null,
  deps: { fetch: typeof fetch; runVerify?: Parameters<typeof runVerifier>[2] } = { fetch: (...a) => fetch(...a) },
): StatementVerifier {
  return async (artifact, maxAgeSeconds, sources) => {
    const source = await trustSourceOf(api, trust, deps.fetch);
    const documents: Record<string, string> = { "statement.json": JSON.stringify(artifact) };
    let trustArgs: string[];
    if ("signers" in source) trustArgs = source.signers.flatMap((s) => ["--signer", s]);
    else {
      documents["signer-registry.json"] = source.bindingText ?? "";
      trustArgs = ["--binding", "signer-registry.json", "--operator", source.operator];
    }
    const freshness = maxAgeSeconds === null ? ["--no-freshness"] : ["--max-age", String(maxAgeSeconds)];
    const outcome = await runVerifier(
      ["statement.json", ...trustArgs, ...freshness, ...verifierArgs(networkFile, sources)],
      documents,
      deps.runVerify,
    );
    if (!outcome.judged) throw new Error(`kusd-verify judged nothing: ${outcome.error}`);
    const { json, status } = outcome;
    const hash = (artifact as { attestation_hash?: unknown } | null)?.attestation_hash;
    return {
      verified: json.verified,
      trust: source.describe,
      attestation_hash: typeof hash === "string" ? hash : null,
      recovered: json.recovered,
      signedAt: json.signedAt,
      checks: json.checks,
      status,
      figures: json.figures ?? [],
      ...(json.ethereum && { ethereum: json.ethereum }),
    };
  };
}

/** The verdict in lines a person or a model reads: one per check, then VERIFIED, PENDING or NOT VERIFIED. */
export function verdictText(v: Verdict): string {
  const lines = v.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  const status = v.status ?? (v.verified ? "verified" : "not verified");
  return `${lines.join("\n")}\n${statusWord(status)} (trust: ${v.trust})`;
}
