import { describe, expect, it } from "vitest";
import { FREE_TOOLS } from "../../mcp/free-tools.js";
import { PAYMENT_META_KEY } from "../../mcp/paid-tools.js";
import { type Charge, COSTS } from "./cost-table.js";
import { MCP_UNREAD_POINTS, mcpCost } from "./mcp-cost.js";

/** The routes asked for, and a cost by path: a past block when `block` is given. */
function routes() {
  const asked: string[] = [];
  const routeCost = async (pathAndQuery: string): Promise<Charge> => {
    asked.push(pathAndQuery);
    return pathAndQuery.includes("block=")
      ? { route: "past_block", points: COSTS.past_block.points }
      : { route: "report", points: COSTS.report.points };
  };
  return { asked, routeCost };
}

const toolCall = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args, ...(meta && { _meta: meta }) },
  });

describe("an MCP request's points", () => {
  it("are the route's for a report tool, asked with the tool's arguments as its query", async () => {
    const { asked, routeCost } = routes();
    for (const tool of FREE_TOOLS) expect((await mcpCost(toolCall(tool.name), routeCost)).points, tool.name).toBe(1);
    expect(asked).toEqual(FREE_TOOLS.map((t) => t.path));
    expect(await mcpCost(toolCall("por", { block: 7 }), routeCost)).toEqual({ route: "past_block", points: 20 });
    expect(asked.at(-1)).toBe("/api/por?block=7");
  });

  it("are the most for a re-derivation, plus the report it reads", async () => {
    const { routeCost } = routes();
    const rpc = "https://mainnet.base.org";
    expect(await mcpCost(toolCall("verify_statement", { rpc }), routeCost)).toEqual({ route: "rederive", points: 50 });
    expect(await mcpCost(toolCall("verify_statement"), routeCost)).toEqual({ route: "mcp", points: 1 });
    expect(await mcpCost(toolCall("verify_report", { rpc, path: "/api/por?block=9" }), routeCost)).toEqual({
      route: "rederive",
      points: 70,
    });
    expect(await mcpCost(toolCall("verify_report", { rpc, report: {} }), routeCost)).toEqual({
      route: "rederive",
      points: 50,
    });
  });

  it("charge a paid tool nothing with a payment, the unpaid route's cost without", async () => {
    const { routeCost } = routes();
    expect(await mcpCost(toolCall("buy_reserves_attestation"), routeCost)).toEqual({ route: "unpaid", points: 1 });
    expect(await mcpCost(toolCall("buy_instant_read", { chain: "base" }), routeCost)).toEqual({
      route: "unpaid_instant_read",
      points: 5,
    });
    expect(
      await mcpCost(toolCall("buy_reserves_attestation", {}, { [PAYMENT_META_KEY]: { x402Version: 2 } }), routeCost),
    ).toEqual({ route: "paid", points: 0 });
  });

  it("are one point for anything else, the sum of a batch, the dearest call's when the body was not read", async () => {
    const { routeCost } = routes();
    for (const body of [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      toolCall("no_such_tool"),
      "{not json",
      "[]",
    ])
      expect((await mcpCost(body, routeCost)).points, body).toBe(1);
    const batch = `[${toolCall("por", { block: 1 })},${toolCall("stats")}]`;
    expect(await mcpCost(batch, routeCost)).toEqual({ route: "past_block", points: 21 });
    expect(await mcpCost(null, routeCost)).toEqual({ route: "rederive", points: MCP_UNREAD_POINTS });
  });
});
