import type { IncomingMessage } from "node:http";
import { Hono } from "hono";
import { Registry } from "prom-client";
import { describe, expect, it, vi } from "vitest";
import { anyOriginCors } from "../cors.js";
import { addressMatcher } from "./client-identity.js";
import { COSTS } from "./cost-table.js";
import { registerRateLimitMetrics } from "./metrics.js";
import { rateLimit } from "./middleware.js";
import { openRateLimitStore, type RateLimitStore } from "./store.js";

const POLICY = { points: 100, windowSeconds: 60 };

/** An app as createApp mounts the limits (after CORS), with routes that count how often they ran. */
function limitedApp(o: { store?: RateLimitStore; exempt?: string[]; refusalHoldMs?: number } = {}) {
  const store = o.store ?? openRateLimitStore({ ...POLICY, schema: "unused" });
  const registry = new Registry();
  const ran: string[] = [];
  const app = new Hono();
  app.use("*", anyOriginCors());
  app.use(
    "*",
    rateLimit({
      store,
      trustedProxies: addressMatcher([]),
      exempt: addressMatcher(o.exempt ?? []),
      metrics: registerRateLimitMetrics(registry, store),
      indexedHead: async () => 1_000n,
      maxBodyBytes: 16 * 1024,
      refusalHoldMs: o.refusalHoldMs ?? 0,
    }),
  );
  app.get("/api/*", (c) => {
    ran.push(c.req.path);
    return c.json({ ok: true });
  });
  app.post("/graphql", async (c) => c.json({ echoed: await c.req.json() }));
  app.get("/paid/reserves", (c) =>
    c.req.header("payment-signature") === "valid" ? c.json({ paid: true }) : c.json({ error: {} }, 402),
  );
  /** A request from `address` over a socket, as @hono/node-server hands it to the app. */
  const from = (address: string | null, path: string, init?: RequestInit) =>
    app.request(
      path,
      init,
      address === null
        ? undefined
        : { incoming: { socket: { remoteAddress: address }, headers: {} } as IncomingMessage },
    );
  const metric = async (name: string, labels: string) =>
    Number(
      (await registry.metrics())
        .split("\n")
        .find((l) => l.startsWith(`${name}{${labels}}`))
        ?.split(" ")[1],
    );
  return { from, ran, metric };
}

const rateLimitOf = (res: Response) => res.headers.get("RateLimit");

describe("the rate limit middleware", () => {
  it("charges each answer's cost and says what is left in RateLimit and RateLimit-Policy", async () => {
    const { from } = limitedApp();
    const a = await from("::ffff:198.51.100.1", "/api/por");
    expect(a.status).toBe(200);
    expect(a.headers.get("RateLimit-Policy")).toBe('"free";q=100;w=60');
    expect(rateLimitOf(a)).toMatch(/^"free";r=99;t=(59|60)$/);
    const b = await from("198.51.100.1", "/api/por?block=5");
    expect(rateLimitOf(b)).toMatch(/^"free";r=79;t=(59|60)$/);
    // Another client has a budget of its own.
    expect(rateLimitOf(await from("198.51.100.2", "/api/por"))).toMatch(/^"free";r=99;/);
  });

  it("holds a refusal before sending it, so a client that asks again at once is slowed, and its Retry-After says the rest", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const { from } = limitedApp({ refusalHoldMs: 1_000 });
      for (let i = 0; i < 5; i++) expect((await from("198.51.100.9", "/api/por?block=5")).status).toBe(200);
      let answered: Response | null = null;
      const refused = Promise.resolve(from("198.51.100.9", "/api/por?block=6")).then((r) => {
        answered = r;
        return r;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(answered).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      const res = await refused;
      expect(res.status).toBe(429);
      // The window had 59 to 60 s left when refused; a second of it was spent holding.
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(58);
      expect(Number(res.headers.get("Retry-After"))).toBeLessThanOrEqual(59);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a client over its budget 429 rate_limited, with Retry-After and both fields, before the route runs", async () => {
    const { from, ran, metric } = limitedApp();
    for (let i = 0; i < 5; i++) expect((await from("198.51.100.3", "/api/por?block=5")).status).toBe(200);
    expect(ran).toHaveLength(5);
    const refused = await from("198.51.100.3", "/api/por?block=6");
    expect(refused.status).toBe(429);
    expect(ran).toHaveLength(5);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rateLimitOf(refused)).toBe(`"free";r=0;t=${retryAfter}`);
    expect(refused.headers.get("RateLimit-Policy")).toBe('"free";q=100;w=60');
    expect(refused.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      error: {
        code: "rate_limited",
        message: expect.stringContaining("100 points per 60 s"),
        details: { retryAfterSeconds: retryAfter, cost: 20, budget: 100, windowSeconds: 60 },
      },
    });
    // Until the window ends, the cheapest request is refused too.
    expect((await from("198.51.100.3", "/api/por")).status).toBe(429);
    expect(await metric("kusd_rate_limited_total", 'route="past_block"')).toBe(1);
    expect(await metric("kusd_rate_limited_total", 'route="report"')).toBe(1);
    // The other client is served throughout.
    expect((await from("198.51.100.4", "/api/por")).status).toBe(200);
  });

  it("does not count an exempt client, an in-process call, a CORS preflight, or the page's files", async () => {
    const { from } = limitedApp({ exempt: ["203.0.113.0/24"] });
    for (let i = 0; i < 10; i++) {
      const exempt = await from("203.0.113.9", "/api/por?block=5");
      expect(exempt.status).toBe(200);
      expect(rateLimitOf(exempt)).toBeNull();
      expect((await from(null, "/api/por?block=5")).status).toBe(200);
      const preflight = await from("198.51.100.5", "/api/por", {
        method: "OPTIONS",
        headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET" },
      });
      expect(preflight.status).toBe(204);
    }
    expect(rateLimitOf(await from("198.51.100.5", "/api/por"))).toMatch(/^"free";r=99;/);
    expect(COSTS.page.points).toBe(0);
  });

  it("serves the request uncounted when the store fails (fail open), and counts the failure", async () => {
    const failing: RateLimitStore = {
      kind: "postgres",
      policy: POLICY,
      consume: async () => ({ outcome: "failed", error: new Error("connect ECONNREFUSED") }),
      close: async () => {},
    };
    const { from, metric } = limitedApp({ store: failing });
    for (let i = 0; i < 3; i++) {
      const res = await from("198.51.100.6", "/api/por?block=5");
      expect(res.status).toBe(200);
      expect(rateLimitOf(res)).toBeNull();
    }
    expect(await metric("kusd_rate_limit_store_failures_total", 'store="postgres"')).toBe(3);
  });

  it("serves a paid request to a client over its free budget, and charges a refused payment afterwards", async () => {
    const { from } = limitedApp();
    for (let i = 0; i < 5; i++) await from("198.51.100.7", "/api/por?block=5");
    expect((await from("198.51.100.7", "/api/por")).status).toBe(429);
    const paid = await from("198.51.100.7", "/paid/reserves", { headers: { "PAYMENT-SIGNATURE": "valid" } });
    expect(paid.status).toBe(200);
    expect(rateLimitOf(paid)).toBeNull();
    // A payment the gateway refuses is answered as the gateway answers it, and charged as unpaid.
    const client = "198.51.100.8";
    expect((await from(client, "/paid/reserves", { headers: { "PAYMENT-SIGNATURE": "forged" } })).status).toBe(402);
    expect(rateLimitOf(await from(client, "/api/por"))).toMatch(/^"free";r=98;/);
  });

  it("reads a body for its cost and leaves it whole for the route", async () => {
    const { from } = limitedApp();
    const body = JSON.stringify({ query: "{ reserves(block: 5) { blockNumber } }" });
    const res = await from("198.51.100.9", "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
      body,
    });
    expect(await res.json()).toEqual({ echoed: JSON.parse(body) });
    // 1 + its complexity's point + a past block's 20.
    expect(rateLimitOf(res)).toMatch(/^"free";r=78;/);
  });
});
