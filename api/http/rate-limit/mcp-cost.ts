/**
 * A POST /mcp's points, from its JSON-RPC message. The tools answer by calling the app in process
 * (api/mcp/routes.ts), and those inner requests have no client of their own to charge: the MCP
 * request pays for what its tool will do. A report tool costs what its REST route costs with the
 * same arguments; a re-derivation (verify_report, verify_statement with `rpc`) costs the most; a
 * paid tool with a payment in `_meta` is not charged to the free budget, without one it costs what
 * the unpaid route costs; anything else (initialize, tools/list, resources) one point.
 */
import { FREE_TOOLS } from "../../mcp/free-tools.js";
import { PAID_TOOLS, PAYMENT_META_KEY } from "../../mcp/paid-tools.js";
import { queryOf } from "../../mcp/tool-results.js";
import { type Charge, COSTS } from "./cost-table.js";

/** A body that was not read (no declared length) is charged as the dearest call: a re-derivation of a report read at a past block. */
export const MCP_UNREAD_POINTS = COSTS.rederive.points + COSTS.past_block.points;

/** `routeCost`: what a GET of a path and query costs (the route behind a report tool). */
export async function mcpCost(
  body: string | null,
  routeCost: (pathAndQuery: string) => Promise<Charge>,
): Promise<Charge> {
  if (body === null) return { route: "rederive", points: MCP_UNREAD_POINTS };
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return { route: "mcp", points: COSTS.mcp.points }; // a parse error, answered at once
  }
  // A batch (older protocol versions) costs what its messages cost.
  const messages = Array.isArray(message) ? message : [message];
  const charges = await Promise.all(messages.map((m) => messageCost(m, routeCost)));
  if (charges.length === 0) return { route: "mcp", points: COSTS.mcp.points };
  const dearest = charges.reduce((a, b) => (b.points > a.points ? b : a));
  return { route: dearest.route, points: charges.reduce((sum, c) => sum + c.points, 0) };
}

async function messageCost(message: unknown, routeCost: (pathAndQuery: string) => Promise<Charge>): Promise<Charge> {
  const mcp: Charge = { route: "mcp", points: COSTS.mcp.points };
  if (!message || typeof message !== "object") return mcp;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== "tools/call" || !params || typeof params !== "object") return mcp;
  const p = params as { name?: unknown; arguments?: unknown; _meta?: unknown };
  const args = p.arguments && typeof p.arguments === "object" ? (p.arguments as Record<string, unknown>) : {};
  const free = FREE_TOOLS.find((t) => t.name === p.name);
  if (free) {
    const { route, points } = await routeCost(`${free.path}${queryOf(args)}`);
    return { route, points };
  }
  if (p.name === "verify_report") {
    const read = typeof args.path === "string" ? (await routeCost(args.path)).points : 0;
    return { route: "rederive", points: COSTS.rederive.points + read };
  }
  if (p.name === "verify_statement" && args.rpc !== undefined)
    return { route: "rederive", points: COSTS.rederive.points };
  const paid = PAID_TOOLS.find((t) => t.name === p.name);
  if (paid) {
    const meta = p._meta && typeof p._meta === "object" ? (p._meta as Record<string, unknown>) : {};
    if (meta[PAYMENT_META_KEY] !== undefined) return { route: "paid", points: COSTS.paid.points };
    return paid.operation.path === "/instant-read"
      ? { route: "unpaid_instant_read", points: COSTS.unpaid_instant_read.points }
      : { route: "unpaid", points: COSTS.unpaid.points };
  }
  return mcp;
}
