import { describe, expect, it } from "vitest";
import { openRateLimitStore, STORE_TIMEOUT_MS, storeKind } from "./store.js";

const policy = { points: 100, windowSeconds: 60, schema: "kusd_rate_limit_unit" };

describe("the rate limit store", () => {
  it("is chosen from what the process has: Redis, else PostgreSQL, else memory", () => {
    expect(storeKind({})).toBe("memory");
    expect(storeKind({ databaseUrl: "postgres://db" })).toBe("postgres");
    expect(storeKind({ databaseUrl: "postgres://db", redisUrl: "redis://r" })).toBe("redis");
  });

  it("counts a client's points in its window, refuses past the budget, and keeps clients apart", async () => {
    const store = openRateLimitStore(policy);
    const first = await store.consume("198.51.100.1", 60);
    expect(first).toMatchObject({ outcome: "allowed", remaining: 40 });
    if (first.outcome === "failed") throw first.error;
    expect(first.msBeforeNext).toBeGreaterThan(59_000);
    expect(first.msBeforeNext).toBeLessThanOrEqual(60_000);
    expect(await store.consume("198.51.100.1", 40)).toMatchObject({ outcome: "allowed", remaining: 0 });
    expect(await store.consume("198.51.100.1", 1)).toMatchObject({ outcome: "refused", remaining: 0 });
    expect(await store.consume("198.51.100.2", 20)).toMatchObject({ outcome: "allowed", remaining: 80 });
    // A request dearer than what is left is refused whole, not served in part.
    expect(await store.consume("198.51.100.2", 81)).toMatchObject({ outcome: "refused" });
    await store.close();
  });

  it("starts a new window when the old one ends", async () => {
    // A fifth of a second: the store takes any window (the configuration asks for whole seconds).
    const store = openRateLimitStore({ ...policy, windowSeconds: 0.2 });
    expect(await store.consume("k", 100)).toMatchObject({ outcome: "allowed" });
    expect(await store.consume("k", 1)).toMatchObject({ outcome: "refused" });
    await new Promise((r) => setTimeout(r, 250));
    expect(await store.consume("k", 1)).toMatchObject({ outcome: "allowed", remaining: 99 });
  });

  it("fails (fail open) within its bound when PostgreSQL or Redis cannot be reached, never throws", async () => {
    // Port 1: nothing listens, connections are refused at once.
    for (const o of [
      { databaseUrl: "postgres://postgres@127.0.0.1:1/postgres" },
      { redisUrl: "redis://127.0.0.1:1" },
    ]) {
      const store = openRateLimitStore({ ...policy, ...o });
      for (let i = 0; i < 3; i++) {
        const t0 = Date.now();
        expect((await store.consume("k", 1)).outcome, JSON.stringify(o)).toBe("failed");
        expect(Date.now() - t0).toBeLessThan(STORE_TIMEOUT_MS + 200);
      }
      await store.close();
    }
  });
});
