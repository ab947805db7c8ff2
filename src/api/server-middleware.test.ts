import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { boundedProbes } from "./server-middleware.js";

/** Ponder's probes as its server has them, behind the bound; `ponder` is how long its read takes. */
function server(database: () => Promise<unknown>, ponder: () => Promise<void>) {
  return new Hono()
    .use(boundedProbes(database, 50))
    .get("/ready", async (c) => {
      await ponder();
      return c.text("", 200);
    })
    .get("/status", async (c) => {
      await ponder();
      return c.json({ base: { id: 8453 } });
    })
    .get("/health", (c) => c.text("", 200));
}
const never = () => new Promise<never>(() => {});
const refused = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));

describe("Ponder's /ready and /status, bounded", () => {
  it("pass through while the database answers", async () => {
    const app = server(
      async () => 1,
      async () => {},
    );
    expect((await app.request("/ready")).status).toBe(200);
    expect(await (await app.request("/status")).json()).toEqual({ base: { id: 8453 } });
  });

  it("answer 503 database_unavailable with Retry-After at once when the database refuses, or within the bound when it hangs", async () => {
    for (const database of [refused, never]) {
      const app = server(database, never);
      for (const path of ["/ready", "/status"]) {
        const t0 = Date.now();
        const res = await app.request(path);
        expect(Date.now() - t0).toBeLessThan(1_000);
        expect(res.status).toBe(503);
        expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");
      }
    }
  });

  it("answer 503 when Ponder's own read outlasts the bound (its retries), and leave other routes alone", async () => {
    const app = server(async () => 1, never);
    expect((await app.request("/ready")).status).toBe(503);
    expect((await app.request("/health")).status).toBe(200);
  });
});
