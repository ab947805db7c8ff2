/**
 * Every free report as an MCP tool. A tool is its REST route: the input schema is the route's
 * query schema, the output schema its response schema (the same zod objects the routes validate
 * and document with), and a call is an in-process request to the route, so the handlers, caching
 * rules and refusals (an argument it refuses included) stay the route's own.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { historyContract } from "../history/routes.js";
import { psmStatusContract } from "../psm/routes.js";
import { accountsContract, violationsContract } from "../registry/routes.js";
import { porContract, redemptionPlanContract, statsContract } from "../reserves/routes.js";
import { riskStatusContract } from "../risk/routes.js";
import { apyContract } from "../yield/routes.js";
import { checkedByTheRoute, queryOf, type RouteCall, resultOf } from "./tool-results.js";

type Contract = {
  summary: string;
  description?: string;
  query?: z.ZodObject;
  response: z.ZodObject;
};

export type FreeTool = { name: string; title: string; path: string; contract: Contract };

/** The free tools, each with the GET route it answers from. */
export const FREE_TOOLS: readonly FreeTool[] = [
  { name: "por", title: "Proof of reserves", path: "/api/por", contract: porContract },
  { name: "stats", title: "Reserves and supply", path: "/api/stats", contract: statsContract },
  { name: "apy", title: "skUSD yield", path: "/api/apy", contract: apyContract },
  {
    name: "redemption_plan",
    title: "Redemption plan",
    path: "/api/por/redemption-plan",
    contract: redemptionPlanContract,
  },
  {
    name: "violations",
    title: "Registry violations",
    path: "/api/por/accounts/violations",
    contract: violationsContract,
  },
  { name: "history", title: "History series", path: "/api/history", contract: historyContract },
  { name: "registry", title: "Account registry", path: "/api/por/accounts", contract: accountsContract },
  { name: "psm_status", title: "PSM mint readiness", path: "/api/psm-status", contract: psmStatusContract },
  { name: "risk_status", title: "Risk switches and roles", path: "/api/risk-status", contract: riskStatusContract },
];

const NO_INPUT = z.object({});

export function registerFreeTools(server: McpServer, call: RouteCall) {
  for (const t of FREE_TOOLS) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: [t.contract.summary, t.contract.description, `Same answer as GET ${t.path}.`]
          .filter(Boolean)
          .join("\n\n"),
        inputSchema: checkedByTheRoute(t.contract.query ?? NO_INPUT),
        outputSchema: t.contract.response,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => resultOf(await call(`${t.path}${queryOf(args)}`)),
    );
  }
}
