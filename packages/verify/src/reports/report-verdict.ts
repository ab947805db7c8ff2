/**
 * A report's re-derivation as one verdict, the shape every agent-facing surface answers with
 * (the hosted MCP tool verify_report, kusd-mcp's, on the agent's machine): verified only when no
 * figure differs and every check passed, the figures by kind, each row.
 */
import { type FigureRow, kindSummary } from "../rederive/figure-rows.js";
import { NetworkMismatchError } from "../rederive/network-check.js";
import { type Check, rederivationChecks } from "../rederive/rederive-checks.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { VenueReadError } from "../venue/venue-read-error.js";
import { rederiveReport } from "./registry.js";
import type { ReaderSources, ReportRederivation } from "./report-verifier.js";

export type ReportVerdict = {
  verified: boolean;
  report: string | null;
  block: { number: number; hash: string } | null;
  /** The figures by kind ("178 figures: 147 equal, 0 differs, 11 declared, 20 venue-now"), or why there are none. */
  summary: string;
  checks: Check[];
  figures: FigureRow[];
};

export function reportVerdict(d: ReportRederivation, rpc: string): ReportVerdict {
  const checks = [...rederivationChecks({ block: d.block, rows: d.rows, proofs: null }, rpc), ...d.checks];
  return {
    verified: checks.every((c) => c.ok),
    report: d.report,
    block: d.block && { number: Number(d.block.number), hash: d.block.hash },
    summary: kindSummary(d.rows),
    checks,
    figures: d.rows,
  };
}

/** No figures: the report could not be read, or a source refused (the reason said once). */
export function refusedVerdict(detail: string): ReportVerdict {
  return {
    verified: false,
    report: null,
    block: null,
    summary: detail,
    checks: [{ name: "report", ok: false, detail }],
    figures: [],
  };
}

/** The verdict in words: each check, then VERIFIED or NOT VERIFIED. */
export function verdictLines(v: ReportVerdict): string {
  const lines = v.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  return `${lines.join("\n")}\n${v.verified ? "VERIFIED" : "NOT VERIFIED"}`;
}

/**
 * Any report re-derived from the reader's sources, as a verdict: a report that cannot be read, a
 * network document of another deployment, an RPC or venue that does not answer is a verdict with
 * the reason and no figures, never a thrown error.
 */
export async function verdictOnReport(report: unknown, s: ReaderSources & { rpc: string }): Promise<ReportVerdict> {
  try {
    return reportVerdict(await rederiveReport(report, s), s.rpc);
  } catch (e) {
    if (e instanceof RederivationError || e instanceof NetworkMismatchError || e instanceof VenueReadError)
      return refusedVerdict(e.message);
    return refusedVerdict(`re-derivation failed: ${(e as Error).message.split("\n")[0]}`);
  }
}
