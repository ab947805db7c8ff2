/**
 * What `kusd-verify` prints: every check with its detail, so a failure says which step failed
 * and a success can be audited, and the signed payload only when everything passed (an
 * unverified payload is never presented as if it were the operator's statement).
 */
import type { Address, Hex } from "viem";
import type { ProofReport } from "../proofs/prove-reads.js";
import type { FigureRow } from "../rederive/figure-rows.js";
import { prettyJsonText } from "./pretty-json.js";

export type Check = { name: string; ok: boolean; detail?: string };

/** What `--rpc` found (cli/rederive-step.ts). */
export type RederiveResult = {
  rpc: string;
  network: string;
  block: { number: number; hash: Hex } | null;
  rows: FigureRow[];
  failedReads: string[];
  proofs: ProofReport | null;
  checks: Check[];
};

export type VerifyReport = {
  verified: boolean;
  source: string;
  trust: string;
  freshness: string;
  checks: Check[];
  recovered: Address | null;
  signedAt: number | null;
  /** signed_payload_canonical as published; set only when verified. */
  payloadText: string | null;
  notes: string[];
  /** With --rpc: the figures re-derived from the reader's RPC. */
  rederivation?: RederiveResult;
};

const shown = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v));

/** The figure table: one line a figure, what was signed and what the reader's chain says. */
function figureLines(r: RederiveResult): string[] {
  if (r.rows.length === 0) return [];
  const width = Math.max(...r.rows.map((x) => x.figure.length));
  const lines = [
    "",
    `figures re-derived from ${r.rpc} at block ${r.block?.number} (network: ${r.network}):`,
    ...r.rows.map((x) => {
      const verdict = x.equal === null ? "recorded" : x.equal ? "equal   " : "DIFFERS ";
      const proof = x.proof ? ` [${x.proof}]` : "";
      const values =
        x.equal === true
          ? shown(x.published)
          : x.equal === null
            ? `${shown(x.published)} (rests on the venue equity recorded at signing; re-derived with it: ${shown(x.rederived)})`
            : `signed ${shown(x.published)}, re-derived ${shown(x.rederived)}`;
      return `  ${verdict}  ${x.figure.padEnd(width)}  ${values}${proof}`;
    }),
  ];
  if (r.failedReads.length > 0) lines.push(...r.failedReads.map((f) => `  read failed: ${f}`));
  const trusted = r.proofs?.reads.filter((x) => x.status === "rpc-trusted") ?? [];
  if (trusted.length > 0) {
    lines.push("", "RPC-trusted reads (no storage proof here):");
    for (const t of trusted) lines.push(`  ${t.read}: ${t.detail}`);
  }
  return lines;
}

export function isoTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return Number.isNaN(date.getTime()) ? "not a valid time" : date.toISOString();
}

export function formatText(report: VerifyReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length), 0);
  const lines = [
    `${report.verified ? "VERIFIED" : "NOT VERIFIED"}: ${report.source}`,
    `trust: ${report.trust}`,
    `freshness: ${report.freshness}`,
    "",
    ...report.checks.map(
      (c) => `  ${c.ok ? "ok  " : "FAIL"}  ${c.name.padEnd(width)}${c.detail ? `  ${c.detail}` : ""}`,
    ),
    "",
    `recovered signer: ${report.recovered ?? "none"}`,
    `signed at: ${report.signedAt === null ? "unknown" : `${isoTime(report.signedAt)} (unix ${report.signedAt})`}`,
    ...report.notes.map((n) => `note: ${n}`),
    ...(report.rederivation ? figureLines(report.rederivation) : []),
  ];
  if (report.payloadText !== null) lines.push("", "signed payload:", prettyJsonText(report.payloadText));
  return `${lines.join("\n")}\n`;
}

/**
 * One JSON object. `payload` is spliced in as the published text rather than re-serialised,
 * so numbers beyond double precision reach the consumer exactly as signed.
 */
export function formatJson(report: VerifyReport): string {
  const r = report.rederivation;
  const head = JSON.stringify({
    verified: report.verified,
    checks: report.checks,
    recovered: report.recovered,
    signedAt: report.signedAt,
    ...(r && {
      rederivation: { rpc: r.rpc, network: r.network, block: r.block, failedReads: r.failedReads },
      figures: r.rows.map((x) => ({
        figure: x.figure,
        published: x.published,
        rederived: x.rederived ?? null,
        equal: x.equal,
        basis: x.basis,
        ...(x.proof && { proof: x.proof, ...(x.restsOn?.length && { restsOn: x.restsOn }) }),
      })),
      ...(r.proofs && { proofs: r.proofs }),
    }),
  });
  return `${head.slice(0, -1)},"payload":${report.payloadText ?? "null"}}\n`;
}

export function formatError(error: { name: string; message: string }, json: boolean): string {
  if (json) return `${JSON.stringify({ verified: false, error: { type: error.name, message: error.message } })}\n`;
  const hint = error.name === "UsageError" ? "\nRun kusd-verify --help for usage." : "";
  return `kusd-verify: ${error.message}${hint}\n`;
}
