import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { shareRefusals } from "@kusd/rpc";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcClient } from "../context.js";
import { coalesce, memo } from "../io/memo.js";
import { readerBudgets } from "../reader-budgets.js";
import { onApiError } from "./errors.js";
import { readerRequests, readsOwnBlocks } from "./reader-requests.js";

/** A JSON-RPC node on a loopback port that answers every call 0x10 and counts them. */
let node: Server;
let nodeUrl: string;
const seen = { calls: 0 };
beforeAll(async () => {
  node = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { id: number } | { id: number }[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      seen.calls += calls.length;
      const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, result: "0x10" });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(Array.isArray(parsed) ? calls.map(answer) : answer(parsed as { id: number })));
    });
  });
  await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
  nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => node.close(() => r())));

const address = (i: number) => `0x${i.toString(16).padStart(40, "0")}` as Address;

/**
 * An app whose reports read through a readers' client, as the service's do: a failed read is a
 * null figure (tolerated), a block's report is kept (a memo whose builds share refusals), and
 * /api/health reports a failed read as a down dependency.
 */
function readerApp(o: { burst: number }) {
  const budgets = readerBudgets({
    KUSD_READER_RPC_CALLS_PER_SECOND: 0.2, // the next token in 5 s
    KUSD_READER_RPC_BURST: o.burst,
    KUSD_READER_MAX_WAIT_MS: 0,
  });
  const client = rpcClient(nodeUrl, "reports", budgets.rpc);
  const caches = shareRefusals({ reports: memo<{ balance: string | null }>({ max: 8 }), head: coalesce<string>() });
  const app = new Hono();
  app.onError(onApiError);
  app.use("*", requestId());
  app.use("*", readerRequests({ venue: null }));
  app.get("/report/:n", async (c) => {
    const n = Number(c.req.param("n"));
    const report = await caches.reports(String(n), async () => ({
      balance: await client.getBalance({ address: address(n) }).then(String, () => null),
    }));
    c.header("ETag", `"${n}"`);
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    return c.json(report);
  });
  app.get("/api/health", async (c) => {
    const chain = await client.getBalance({ address: address(999) }).then(
      () => "answered",
      () => "down",
    );
    return c.json({ chain });
  });
  return { app, budgets };
}

describe("a reader request the readers' budget refused", () => {
  it("is served within the budget, then answered 503 as a whole with Retry-After and the catalogue's code, never its null figure", async () => {
    const { app, budgets } = readerApp({ burst: 1 });
    const first = await app.request("/report/1");
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ balance: "16" });
    const calls = seen.calls;
    const second = await app.request("/report/2");
    expect(second.status).toBe(503);
    expect(second.headers.get("Retry-After")).toBe("5");
    expect(second.headers.get("Cache-Control")).toBe("no-store");
    expect(second.headers.get("ETag")).toBeNull();
    expect(second.headers.get("X-Request-Id")).toBeTruthy();
    expect(await second.json()).toEqual({
      error: {
        code: "reader_rpc_budget_exhausted",
        message: expect.stringContaining("retry after 5 s"),
        details: { budget: "rpc", retryAfterSeconds: 5 },
      },
    });
    expect(seen.calls).toBe(calls); // refused before it was sent
    expect(budgets.rpc.used()).toEqual({ taken: 1, refusals: 1 });
    // What is kept needs no token: the first block's report is served while the budget is spent.
    const again = await app.request("/report/1");
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ balance: "16" });
  });

  it("fails every request that waited for the refused build, and keeps nothing of it", async () => {
    const { app } = readerApp({ burst: 1 });
    expect((await app.request("/report/10")).status).toBe(200);
    const [a, b] = await Promise.all([app.request("/report/11"), app.request("/report/11")]);
    expect([a.status, b.status]).toEqual([503, 503]);
    expect((await b.json()).error.code).toBe("reader_rpc_budget_exhausted");
    expect((await app.request("/report/11")).status).toBe(503); // built again (nothing kept), refused again
  });

  it("leaves /api/health its 200: a read the budget refused is a dependency down there", async () => {
    const { app } = readerApp({ burst: 1 });
    await app.request("/report/20");
    const health = await app.request("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ chain: "down" });
  });
});

describe("readsOwnBlocks", () => {
  const head = async () => 1_000n;
  it.each([
    ["GET", "/api/por", {}, false],
    ["GET", "/api/hedge-ledger", {}, false],
    ["GET", "/api/por", { block: "120" }, true],
    ["GET", "/api/psm-status", { block: "999" }, false], // the head's, as the page asks it
    ["GET", "/api/stats", { block: "998" }, false],
    ["GET", "/api/stats", { block: "997" }, true],
    ["POST", "/graphql", {}, true],
    ["GET", "/graphql", {}, true],
    ["POST", "/mcp", {}, true],
  ] as const)("%s %s %o: %s", async (method, path, query, own) => {
    expect(await readsOwnBlocks(method, path, (name) => (query as Record<string, string>)[name], head)).toBe(own);
  });
});
