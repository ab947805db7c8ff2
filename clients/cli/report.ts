/**
 * What `kusd-verify` prints: every check with its detail, so a failure says which step failed
 * and a success can be audited, and the signed payload only when everything passed (an
 * unverified payload is never presented as if it were the operator's statement).
 */
import type { Address } from "viem";
import { prettyJsonText } from "./pretty-json.js";

export type Check = { name: string; ok: boolean; detail?: string };

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
};

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
  ];
  if (report.payloadText !== null) lines.push("", "signed payload:", prettyJsonText(report.payloadText));
  return `${lines.join("\n")}\n`;
}

/**
 * One JSON object. `payload` is spliced in as the published text rather than re-serialised,
 * so numbers beyond double precision reach the consumer exactly as signed.
 */
export function formatJson(report: VerifyReport): string {
  const head = JSON.stringify({
    verified: report.verified,
    checks: report.checks,
    recovered: report.recovered,
    signedAt: report.signedAt,
  });
  return `${head.slice(0, -1)},"payload":${report.payloadText ?? "null"}}\n`;
}

export function formatError(error: { name: string; message: string }, json: boolean): string {
  if (json) return `${JSON.stringify({ verified: false, error: { type: error.name, message: error.message } })}\n`;
  const hint = error.name === "UsageError" ? "\nRun kusd-verify --help for usage." : "";
  return `kusd-verify: ${error.message}${hint}\n`;
}
