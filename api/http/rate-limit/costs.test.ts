import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COSTS, costTableMarkdown, EXPORT_BATCH_ROWS, RECENT_BLOCKS } from "./cost-table.js";
import { type CostRequest, costOf, exportPoints } from "./costs.js";
import { GRAPHQL_MAX_POINTS } from "./graphql-cost.js";
import { MCP_UNREAD_POINTS } from "./mcp-cost.js";

const HEAD = 1_000n;

function request(method: string, target: string, o: { headers?: Record<string, string>; body?: string | null } = {}) {
  const url = new URL(target, "http://api.test");
  const headers = new Headers(o.headers);
  return {
    method,
    path: url.pathname,
    query: url.searchParams,
    header: (name) => headers.get(name) ?? undefined,
    body: async () => o.body ?? null,
    indexedHead: async () => HEAD,
  } satisfies CostRequest;
}
const get = (target: string, headers?: Record<string, string>) => costOf(request("GET", target, { headers }));

describe("the cost table", () => {
  it("gives every row a reason, and whole points", () => {
    for (const [name, cost] of Object.entries(COSTS)) {
      expect(cost.reason.length, name).toBeGreaterThan(20);
      expect(Number.isInteger(cost.points) && cost.points >= 0, name).toBe(true);
    }
  });

  it("is docs/api.md's, row for row", () => {
    const doc = readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8");
    expect(doc, "docs/api.md#limits: paste costTableMarkdown()'s table").toContain(costTableMarkdown());
  });

  it("has no request dearer than the smallest budget the configuration accepts (100, packages/config/src/env.ts)", () => {
    expect(Math.max(GRAPHQL_MAX_POINTS, MCP_UNREAD_POINTS, ...Object.values(COSTS).map((c) => c.points))).toBeLessThan(
      100,
    );
  });
});

describe("a request's cost", () => {
  it("is a report's point at the head, a snapshot's at a past block", async () => {
    expect(await get("/api/por")).toEqual({ route: "report", points: 1 });
    expect(await get("/api/por?block=latest")).toEqual({ route: "report", points: 1 });
    expect(await get(`/api/por?block=${HEAD}`)).toEqual({ route: "report", points: 1 });
    // The head's neighbours: their snapshots are the ones head readers made moments ago.
    expect(await get(`/api/psm-status?block=${HEAD - RECENT_BLOCKS}`)).toEqual({ route: "report", points: 1 });
    expect(await get(`/api/por?block=${HEAD - RECENT_BLOCKS - 1n}`)).toEqual({ route: "past_block", points: 20 });
    expect(await get("/api/stats?block=5")).toEqual({ route: "past_block", points: 20 });
    expect(await get("/api/por/redemption-plan?amount=10&block=5")).toEqual({ route: "past_block", points: 20 });
    // Refused 400 by the route before any read.
    expect(await get("/api/por?block=0x12")).toEqual({ route: "report", points: 1 });
  });

  it("is a snapshot's when the indexed head is unknown (the database down), never an error", async () => {
    const r = { ...request("GET", "/api/por?block=999"), indexedHead: () => Promise.reject(new Error("down")) };
    expect(await costOf(r)).toEqual({ route: "past_block", points: 20 });
  });

  it("prices an export by the rows its limit allows", async () => {
    expect(exportPoints("1")).toBe(2);
    expect(exportPoints(String(EXPORT_BATCH_ROWS))).toBe(2);
    expect(exportPoints(String(EXPORT_BATCH_ROWS + 1))).toBe(4);
    expect(exportPoints("999999999")).toBe(COSTS.export_whole.points);
    expect(exportPoints(null)).toBe(COSTS.export_whole.points);
    // The export's own check refuses these before any row: one batch.
    for (const malformed of ["0", "01", "1e3", "-5", "1000000000"]) expect(exportPoints(malformed), malformed).toBe(2);
    expect(await get("/api/export/psmSwaps.csv?limit=5")).toEqual({ route: "export_batch", points: 2 });
    expect(await get("/api/export/violations.ndjson")).toEqual({ route: "export_whole", points: 40 });
    // An export's `block` is the indexed state as of it: a database read, not a chain snapshot.
    expect(await get("/api/export/psmSwaps.csv?block=5&limit=5")).toEqual({ route: "export_batch", points: 2 });
  });

  it("charges ranges of the indexed tables, documents and the page's files by their rows", async () => {
    expect(await get("/api/history?interval=DAY")).toEqual({ route: "indexed_range", points: 2 });
    expect(await get("/api/events/redemptions?fromBlock=1")).toEqual({ route: "indexed_range", points: 2 });
    expect(await get("/api/por/accounts/violations?limit=1000")).toEqual({ route: "indexed_range", points: 2 });
    expect(await get("/api/hedge-ledger")).toEqual({ route: "venue_ledger", points: 20 });
    for (const path of ["/api/openapi.json", "/api/network", "/api/por/signed", "/llms.txt", "/nowhere"])
      expect(await get(path), path).toEqual({ route: "other", points: 1 });
    expect(await get("/")).toEqual({ route: "page", points: 0 });
    expect(await get("/assets/index-abc.js")).toEqual({ route: "page", points: 0 });
    expect(await costOf(request("POST", "/api/por/signed"))).toEqual({ route: "other", points: 1 });
  });

  it("does not charge a paid request to the free budget, but a refused payment afterwards as unpaid", async () => {
    expect(await get("/paid/reserves")).toEqual({ route: "unpaid", points: 1 });
    expect(await costOf(request("POST", "/paid/instant-read"))).toEqual({ route: "unpaid_instant_read", points: 5 });
    for (const header of ["PAYMENT-SIGNATURE", "X-PAYMENT"]) {
      const paid = await get("/paid/reserves", { [header]: "eyJ4NDAyVmVyc2lvbiI6Mn0=" });
      expect(paid.points).toBe(0);
      expect(paid.after?.(200)).toBe(0);
      expect(paid.after?.(402)).toBe(1);
      expect(paid.after?.(409)).toBe(1);
      expect(paid.after?.(503)).toBe(0);
    }
    const instant = await costOf(request("POST", "/paid/instant-read", { headers: { "payment-signature": "x" } }));
    expect(instant.after?.(400)).toBe(5);
  });

  it("reads a GraphQL request from its body or its query string", async () => {
    const query = "{ reserves(block: 5) { blockNumber } }";
    const posted = await costOf(request("POST", "/graphql", { body: JSON.stringify({ query }) }));
    const got = await get(`/graphql?query=${encodeURIComponent(query)}`);
    expect(posted.points).toBeGreaterThan(20);
    expect(got).toEqual(posted);
    expect(await get("/graphql")).toEqual({ route: "graphql", points: 1 });
    expect(await costOf(request("POST", "/graphql", { body: "{not json" }))).toEqual({ route: "graphql", points: 1 });
    // A body of no declared length is not read: charged as the dearest query.
    expect(await costOf(request("POST", "/graphql", { body: null }))).toEqual({
      route: "graphql",
      points: GRAPHQL_MAX_POINTS,
    });
  });

  it("charges an MCP report tool what its route costs with the same arguments", async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      costOf(
        request("POST", "/mcp", {
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
        }),
      );
    expect(await call("por", {})).toEqual({ route: "report", points: 1 });
    expect(await call("por", { block: 5 })).toEqual({ route: "past_block", points: 20 });
    expect(await call("history", { interval: "DAY" })).toEqual({ route: "indexed_range", points: 2 });
  });
});
