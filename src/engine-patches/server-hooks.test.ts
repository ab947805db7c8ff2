/**
 * server-hooks (patches/README.md), the server's half: Ponder's createServer runs the API file's
 * `serverMiddleware` before every route, its own (/health, /ready, /status, /metrics) included,
 * and hands its Node server to `onHttpServer` (WebSocket upgrades, JSON answers to requests Node's
 * parser refuses: src/api/server-middleware.ts). build.test.ts holds the build's half.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";

type CreateServer = (args: object) => Promise<{ hono: Hono }>;
const { createServer }: { createServer: CreateServer } = await import(
  new URL("../../node_modules/ponder/dist/esm/server/index.js", import.meta.url).href
);

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const metric = { observe() {}, inc() {}, dec() {} };

describe("Ponder's server (patched)", () => {
  it("runs the API's serverMiddleware before its own routes and gives onHttpServer its Node server", async () => {
    const stops: Array<() => Promise<unknown>> = [];
    const serverMiddleware: MiddlewareHandler = async (c, next) => {
      await next();
      c.res.headers.set("x-kusd-middleware", "ran");
    };
    let given: Server | null = null;
    const app = new Hono().get("/own", (c) => c.text("own"));
    const { hono } = await createServer({
      common: {
        logger: silent,
        metrics: {
          ponder_http_server_active_requests: metric,
          ponder_http_server_request_size_bytes: metric,
          ponder_http_server_response_size_bytes: metric,
          ponder_http_server_request_duration_ms: metric,
        },
        apiShutdown: { add: (stop: () => Promise<unknown>) => stops.push(stop) },
      },
      database: {},
      apiBuild: {
        app,
        port: 0,
        hostname: "127.0.0.1",
        serverMiddleware,
        onHttpServer: (server: Server) => {
          given = server;
        },
      },
    });
    try {
      const health = await hono.request("/health");
      expect(health.status).toBe(200);
      expect(health.headers.get("x-kusd-middleware")).toBe("ran");
      expect((await hono.request("/own")).headers.get("x-kusd-middleware")).toBe("ran");
      expect(given, "onHttpServer was called with the server").not.toBeNull();
      const port = (given!.address() as AddressInfo).port;
      expect((await fetch(`http://127.0.0.1:${port}/own`)).headers.get("x-kusd-middleware")).toBe("ran");
    } finally {
      for (const stop of stops) await stop();
    }
  });
});
