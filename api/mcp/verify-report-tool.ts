/**
 * `verify_report`: any report this service publishes, re-derived from an RPC and a venue of the
 * agent's choosing with the same code as `kusd-verify --report` (packages/verify's rederiveReport):
 * every figure with its kind (equal, differs, declared, venue-now, bracketed, beyond-retention).
 * The agent passes a report it holds, or names a route and this server reads it; this server then
 * makes the reads, so a loopback or private RPC or venue is refused on a public site, as
 * verify_statement refuses it.
 */
import type { NetworkConfig } from "@kusd/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  DEFAULT_BRACKET_TOLERANCE,
  FigureRowSchema,
  knownReports,
  type ReportVerdict,
  refusedVerdict,
  VENUE_NOW_MAX_AGE_SECONDS,
  verdictLines,
  verdictOnReport,
} from "../../packages/verify/src/index.js";
import { checkedByTheRoute, describeError, type RouteCall, resultOf, toolError } from "./tool-results.js";

const paths = knownReports().map((r) => r.path);

export const VerifyReportInputSchema = z.strictObject({
  report: z
    .looseObject({ pins: z.looseObject({ report: z.string() }) })
    .optional()
    .describe("a report as published (any of this service's reports: it names itself in pins.report)"),
  path: z
    .string()
    .refine((p) => paths.includes(p.split("?")[0]!), `one of ${paths.join(", ")} (with its query, e.g. ?block=N)`)
    .optional()
    .describe(`or: the route this server reads the report from now (${paths.join(", ")}), with its query`),
  rpc: z
    .url({ protocol: /^https?$/ })
    .describe("a Base RPC of your choice: every chain input is read again from it at the report's block, by hash"),
  venue: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe("a venue POST /info endpoint of your choice (default: the network's, Hyperliquid's on Base)"),
});

export const VerifyReportOutputSchema = z.strictObject({
  verified: z.boolean().describe("true only when no figure differs and every check passed"),
  report: z.string().nullable().describe("which report it is (its pins)"),
  block: z.strictObject({ number: z.number().int(), hash: z.string() }).nullable(),
  summary: z.string().describe("the figures by kind"),
  checks: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
  figures: z.array(FigureRowSchema),
});

export type VerifyReportDeps = {
  call: RouteCall;
  network: NetworkConfig;
  /** Why this server will not read from a URL (null: it will). */
  refuseRpc: (url: string) => string | null;
};

function answer(verdict: ReportVerdict): CallToolResult {
  return { content: [{ type: "text", text: verdictLines(verdict) }], structuredContent: verdict };
}

export async function verifyReport(
  input: z.infer<typeof VerifyReportInputSchema>,
  deps: VerifyReportDeps,
): Promise<CallToolResult> {
  const venueUrl = input.venue ?? deps.network.reporting.venue.url;
  for (const url of [input.rpc, venueUrl]) {
    const refusal = url ? deps.refuseRpc(url) : null;
    if (refusal) return answer(refusedVerdict(refusal));
  }
  let report: unknown = input.report;
  if (report === undefined) {
    if (!input.path) return toolError("invalid_report: pass a report, or the path of one to read");
    const read = await resultOf(await deps.call(input.path));
    if (read.isError) return read;
    report = read.structuredContent;
  }
  return answer(
    await verdictOnReport(report, {
      rpc: input.rpc,
      network: deps.network,
      networkName: "this service's network document (GET /api/network)",
      venue: venueUrl ? { url: venueUrl, bracketTolerance: DEFAULT_BRACKET_TOLERANCE } : null,
      venueNowMaxAgeSeconds: VENUE_NOW_MAX_AGE_SECONDS,
      nowMs: Date.now(),
    }),
  );
}

export function registerVerifyReportTool(server: McpServer, deps: VerifyReportDeps) {
  server.registerTool(
    "verify_report",
    {
      title: "Re-derive a report",
      description: `Re-derives every figure of a report this service publishes (${paths.join(", ")}) from the RPC and the venue you name, with the same code as \`kusd-verify --report\`: each figure equal, differs, declared (operator policy), venue-now (a current-only venue answer), bracketed (a recorded venue equity inside the venue's account value history) or beyond-retention. Run \`npx kusd-verify --report\` (or kusd-mcp over stdio) to re-derive on your own machine instead of trusting this server.`,
      inputSchema: checkedByTheRoute(VerifyReportInputSchema),
      outputSchema: VerifyReportOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args: Record<string, unknown>) => {
      const input = VerifyReportInputSchema.safeParse(args);
      if (input.success) return verifyReport(input.data, deps);
      const issue = input.error.issues[0]!;
      const name = String(issue.path[0] ?? "arguments");
      return toolError(
        describeError({ code: `invalid_${name}`, message: issue.message, details: { [name]: args[name] ?? null } }),
      );
    },
  );
}
