/**
 * verify_report on the agent's machine: the report the agent passes, or the one the API serves at
 * the route it names, re-derived from the RPC and venue the agent names with kusd-verify's code
 * and the network document kusd-mcp was started with. Nothing of the API is trusted but the bytes
 * of the report, which are what is checked. With an Ethereum RPC (`l1Rpc`), `kusd-verify --report
 * … --l1-rpc … --json` runs here over the report: its block proven from the output roots Base
 * posts on Ethereum, every read at it executed over state proven against that hash; the verdict
 * then carries `ethereum`, and `status` says pending when the block is newer than every posted root.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Hex } from "viem";
import {
  DEFAULT_BRACKET_TOLERANCE,
  kindSummary,
  loadNetworkDocument,
  networkOf,
  type ReportVerdict,
  refusedVerdict,
  VENUE_NOW_MAX_AGE_SECONDS,
  verdictOnReport,
} from "../../verify/src/node.js";
import { type Ethereum, runVerifier, statusWord, type VerdictStatus, verifierArgs } from "./verify-inputs.js";

export type LocalReportArgs = {
  report?: unknown;
  path?: string;
  rpc: string;
  venue?: string;
  l1Rpc?: string;
  l1BlockHash?: string;
};

/** verify_report's answer here: the API's verdict, its status, and with l1Rpc what Ethereum said. */
export type LocalReportVerdict = ReportVerdict & { status: VerdictStatus; ethereum?: Ethereum };

export type LocalReportDeps = { fetch: typeof fetch; runVerify?: Parameters<typeof runVerifier>[2] };

/** The verdict in words: each check, then VERIFIED, PENDING or NOT VERIFIED. */
export function localVerdictLines(v: LocalReportVerdict): string {
  const lines = v.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  return `${lines.join("\n")}\n${statusWord(v.status)}`;
}

const answer = (v: LocalReportVerdict): CallToolResult => ({
  content: [{ type: "text", text: localVerdictLines(v) }],
  structuredContent: v,
});

const refused = (detail: string): LocalReportVerdict => ({ ...refusedVerdict(detail), status: "not verified" });

/** kusd-verify --report --l1-rpc over the report, as one verdict; a source that does not answer is a refusal with its reason. */
async function provenFromEthereum(
  report: unknown,
  a: LocalReportArgs,
  networkFile: string | null,
  deps: LocalReportDeps,
): Promise<LocalReportVerdict> {
  const l1 = { rpc: a.l1Rpc!, blockHash: (a.l1BlockHash?.toLowerCase() as Hex | undefined) ?? null };
  const outcome = await runVerifier(
    ["report.json", "--report", ...verifierArgs(networkFile, { rpc: a.rpc, venue: a.venue ?? null, l1 })],
    { "report.json": JSON.stringify(report) },
    deps.runVerify,
  );
  if (!outcome.judged) return refused(outcome.error);
  const { json, status } = outcome;
  const figures = json.figures ?? [];
  return {
    verified: json.verified,
    report: json.report ?? null,
    block: json.rederivation?.block ?? null,
    summary: figures.length > 0 ? kindSummary(figures) : (json.checks.find((c) => !c.ok)?.detail ?? "no figures"),
    checks: json.checks,
    figures,
    status,
    ...(json.ethereum && { ethereum: json.ethereum }),
  };
}

export function localReportVerifier(
  api: string,
  networkFile: string | null,
  deps: LocalReportDeps = { fetch: (...a) => fetch(...a) },
) {
  return async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const a = args as LocalReportArgs;
    const { doc, name } = await loadNetworkDocument(networkFile);
    const network = networkOf(doc, a.rpc);
    let report = a.report;
    if (report === undefined) {
      const res = await deps.fetch(`${api}${a.path ?? ""}`);
      if (!res.ok) {
        const v = refused(`GET ${api}${a.path} answered ${res.status}`);
        return { isError: true, content: [{ type: "text", text: localVerdictLines(v) }] };
      }
      report = await res.json();
    }
    if (a.l1Rpc !== undefined) return answer(await provenFromEthereum(report, a, networkFile, deps));
    const venue = a.venue ?? network.reporting.venue.url;
    const verdict = await verdictOnReport(report, {
      rpc: a.rpc,
      network,
      networkName: name,
      venue: venue ? { url: venue, bracketTolerance: DEFAULT_BRACKET_TOLERANCE } : null,
      venueNowMaxAgeSeconds: VENUE_NOW_MAX_AGE_SECONDS,
      nowMs: Date.now(),
    });
    return answer({ ...verdict, status: verdict.verified ? "verified" : "not verified" });
  };
}
