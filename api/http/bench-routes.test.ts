import { describe, expect, it } from "vitest";
import { benchRoutes, collectedMemory, constantBody } from "./bench-routes.js";
import { withApiErrors } from "./errors.js";

describe("constant bench route", () => {
  it("serialises to the size asked for", () => {
    for (const bytes of [32, 100, 1_000, 36_108, 250_000])
      expect(JSON.stringify(constantBody(bytes)).length).toBe(bytes);
  });
  it("answers the body, and 400 for a size out of range", async () => {
    const app = withApiErrors(benchRoutes());
    const ok = await app.request("/__bench/constant?bytes=5000");
    expect(ok.status).toBe(200);
    expect((await ok.text()).length).toBe(5000);
    const bad = await app.request("/__bench/constant?bytes=abc");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_bytes");
  });
});

describe("gc bench route", () => {
  it("collects when gc is exposed and says so, with the process's memory", async () => {
    let runs = 0;
    const m = collectedMemory(() => runs++);
    expect(runs).toBe(1);
    expect(m.collected).toBe(true);
    expect(m.rssBytes).toBeGreaterThan(m.heapUsedBytes);
    expect(collectedMemory(undefined).collected).toBe(false);
    const res = await withApiErrors(benchRoutes()).request("/__bench/gc", { method: "POST" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { heapUsedBytes: number }).heapUsedBytes).toBeGreaterThan(0);
  });
});
