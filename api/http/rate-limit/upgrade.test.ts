import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressMatcher } from "./client-identity.js";
import { COSTS } from "./cost-table.js";
import { openRateLimitStore } from "./store.js";
import { chargedUpgrade } from "./upgrade.js";

const store = openRateLimitStore({ points: 100, windowSeconds: 60, schema: "unused" });
let upgraded = 0;
const server = createServer();
server.on(
  "upgrade",
  chargedUpgrade(
    { store, trustedProxies: addressMatcher([]), exempt: addressMatcher([]), metrics: null },
    (_request, socket) => {
      upgraded++;
      socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    },
  ),
);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** An upgrade request's answer (a refused upgrade is an ordinary HTTP response). */
const upgrade = () =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({
      port,
      host: "127.0.0.1",
      path: "/graphql",
      headers: { Connection: "Upgrade", Upgrade: "websocket" },
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });

describe("a WebSocket upgrade", () => {
  it("is charged as opening a subscription, and refused 429 past the budget without reaching the handshake", async () => {
    const allowed = 100 / COSTS.subscription.points;
    for (let i = 0; i < allowed; i++) expect((await upgrade()).status).toBe(400);
    expect(upgraded).toBe(allowed);
    const refused = await upgrade();
    expect(upgraded).toBe(allowed);
    expect(refused.status).toBe(429);
    expect(refused.headers["ratelimit-policy"]).toBe('"free";q=100;w=60');
    expect(refused.headers.ratelimit).toBe(`"free";r=0;t=${refused.headers["retry-after"]}`);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: "rate_limited", details: { cost: COSTS.subscription.points, budget: 100, windowSeconds: 60 } },
    });
  });
});
