/**
 * verify_report on the agent's machine: the report the agent passes, or the one the API serves at
 * the route it names, re-derived from the RPC and venue the agent names with kusd-verify's code
 * and the network document kusd-mcp was started with. Nothing of the API is trusted but the bytes
 * of the report, which are what is checked.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  DEFAULT_BRACKET_TOLERANCE,
  loadNetworkDocument,
  networkOf,
  refusedVerdict,
  VENUE_NOW_MAX_AGE_SECONDS,
  verdictLines,
  verdictOnReport,
} from "../../verify/src/node.js";

export type LocalReportArgs = { report?: unknown; path?: string; rpc: string; venue?: string };

export function localReportVerifier(api: string, networkFile: string | null) {
  return async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const a = args as LocalReportArgs;
    const { doc, name } = await loadNetworkDocument(networkFile);
    const network = networkOf(doc, a.rpc);
    let report = a.report;
    if (report === undefined) {
      const res = await fetch(`${api}${a.path ?? ""}`);
      if (!res.ok) {
        const v = refusedVerdict(`GET ${api}${a.path} answered ${res.status}`);
        return { isError: true, content: [{ type: "text", text: verdictLines(v) }] };
      }
      report = await res.json();
    }
    const venue = a.venue ?? network.reporting.venue.url;
    const verdict = await verdictOnReport(report, {
      rpc: a.rpc,
      network,
      networkName: name,
      venue: venue ? { url: venue, bracketTolerance: DEFAULT_BRACKET_TOLERANCE } : null,
      venueNowMaxAgeSeconds: VENUE_NOW_MAX_AGE_SECONDS,
      nowMs: Date.now(),
    });
    return { content: [{ type: "text", text: verdictLines(verdict) }], structuredContent: verdict };
  };
}
