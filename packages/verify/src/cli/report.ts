/**
 * What `kusd-verify` prints: every check with its detail, so a failure says which step failed
 * and a success can be audited, and the signed payload only when everything passed (an
 * unverified payload is never presented as if it were the operator's statement).
 */

import type { ReportKind } from "@kusd/core";
import type { Address, Hex } from "viem";
import type { L1Anchoring } from "../l1/base-block-from-l1.js";
import type { ProofReport } from "../proofs/read-proof.js";
import { type FigureRow, kindSummary } from "../rederive/figure-rows.js";
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
  /** With --l1-rpc: the block proven from Ethereum, pending, or why not. */
  l1?: L1Anchoring;
  checks: Check[];
};

export type VerifyReport = {
  verified: boolean;
  source: string;
  /** With --report: which report it is (its pins). */
  report?: ReportKind;
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

const VERDICT: Record<FigureRow["kind"], string> = {
  equal: "equal",
  differs: "DIFFERS",
  declared: "declared",
  "venue-now": "venue-now",
  bracketed: "bracketed",
  "beyond-retention": "beyond-retention",
};
const VERDICT_WIDTH = Math.max(...Object.values(VERDICT).map((v) => v.length));

/** The figure table: one line a figure, what was published, what the reader's reads say, and its kind; notes once each, below. */
function figureLines(r: RederiveResult): string[] {
  if (r.rows.length === 0) return [];
  const width = Math.max(...r.rows.map((x) => x.figure.length));
  const notes: string[] = [];
  const mark = (note: string | undefined) => {
    if (note === undefined) return "";
    const i = notes.indexOf(note);
    return ` [${(i < 0 ? notes.push(note) : i + 1).toString()}]`;
  };
  const lines = [
    "",
    `figures re-derived from ${r.rpc}${r.block ? ` at block ${r.block.number}` : ""} (network: ${r.network}):`,
    ...r.rows.map((x) => {
      const values =
        x.kind === "differs"
          ? `published ${shown(x.published)}, re-derived ${shown(x.rederived)}`
          : x.kind === "venue-now" && x.now !== undefined && x.now !== x.published
            ? `${shown(x.published)} (venue now: ${shown(x.now)})`
            : shown(x.published);
      const proof = x.proof ? ` [${x.proof}]` : "";
      return `  ${VERDICT[x.kind].padEnd(VERDICT_WIDTH)}  ${x.figure.padEnd(width)}  ${values}${proof}${mark(x.note)}`;
    }),
  ];
  if (notes.length > 0) lines.push("", ...notes.map((n, i) => `  [${i + 1}] ${n}`));
  if (r.failedReads.length > 0) lines.push(...r.failedReads.map((f) => `  read failed: ${f}`));
  const failed = r.proofs?.reads.filter((x) => x.status === "failed") ?? [];
  if (failed.length > 0) {
    lines.push("", "reads whose proof failed:");
    for (const t of failed) lines.push(`  ${t.read}: ${t.detail}`);
  }
  return lines;
}

export function isoTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return Number.isNaN(date.getTime()) ? "not a valid time" : date.toISOString();
}

/** Pending on Ethereum (exit 3): every check passed but the Ethereum one, which waits for a root to be posted. */
export function isPending(report: VerifyReport): boolean {
  const l1 = report.rederivation?.l1;
  return !report.verified && l1?.status === "pending" && report.checks.every((c) => c.ok || c.name === "ethereum");
}

export function formatText(report: VerifyReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length), 0);
  const r = report.rederivation;
  const lines = [
    `${report.verified ? "VERIFIED" : isPending(report) ? "PENDING" : "NOT VERIFIED"}: ${report.source}`,
    ...(report.report ? [`report: ${report.report}${r?.block ? ` at block ${r.block.number}` : ""}`] : []),
    ...(r && r.rows.length > 0 ? [`figures: ${kindSummary(r.rows)}`] : []),
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
    ...(report.report && { report: report.report }),
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
        kind: x.kind,
        ...(x.note !== undefined && { note: x.note }),
        ...(x.now !== undefined && { now: x.now }),
        ...(x.proof && { proof: x.proof, ...(x.restsOn?.length && { restsOn: x.restsOn }) }),
      })),
      ...(r.proofs && { proofs: r.proofs }),
      ...(r.l1 && { ethereum: r.l1 }),
    }),
  });
  return `${head.slice(0, -1)},"payload":${report.payloadText ?? "null"}}\n`;
}

export function formatError(error: { name: string; message: string }, json: boolean): string {
  if (json) return `${JSON.stringify({ verified: false, error: { type: error.name, message: error.message } })}\n`;
  const hint = error.name === "UsageError" ? "\nRun kusd-verify --help for usage." : "";
  return `kusd-verify: ${error.message}${hint}\n`;
}
