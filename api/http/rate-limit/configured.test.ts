import { readServiceEnv } from "@kusd/config";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { configuredRateLimit, DEFAULT_POINTS, DEFAULT_WINDOW_SECONDS } from "./configured.js";

describe("the limits as configured", () => {
  it("are off with KUSD_RATE_LIMIT=0", () => {
    expect(configuredRateLimit(readServiceEnv({ KUSD_RATE_LIMIT: "0" }))).toBeNull();
  });

  it("default to 1,200 points a minute in memory, and say so on /metrics", async () => {
    const registry = new Registry();
    const limits = configuredRateLimit(readServiceEnv({}), registry)!;
    expect(limits.store.kind).toBe("memory");
    expect(limits.store.policy).toEqual({ points: DEFAULT_POINTS, windowSeconds: DEFAULT_WINDOW_SECONDS });
    expect(DEFAULT_POINTS).toBe(1_200);
    const text = await registry.metrics();
    expect(text).toContain('kusd_rate_limit_store{store="memory"} 1');
    expect(text).toContain("kusd_rate_limit_budget_points 1200");
    expect(text).toContain("kusd_rate_limit_window_seconds 60");
    expect(text).toContain('kusd_rate_limited_total{route="past_block"} 0');
    expect(text).not.toContain('kusd_rate_limited_total{route="page"}');
  });

  it("keep the counts in the processes' PostgreSQL, or in Redis when one is named, and trust only the proxies named", async () => {
    const env = readServiceEnv({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/postgres",
      KUSD_RATE_LIMIT_POINTS: "500",
      KUSD_RATE_LIMIT_WINDOW_SECONDS: "10",
      KUSD_TRUSTED_PROXIES: "10.0.0.0/8",
      KUSD_RATE_LIMIT_EXEMPT: "192.0.2.1",
    });
    const pg = configuredRateLimit(env)!;
    expect(pg.store.kind).toBe("postgres");
    expect(pg.store.policy).toEqual({ points: 500, windowSeconds: 10 });
    expect(pg.trustedProxies("10.2.3.4")).toBe(true);
    expect(pg.trustedProxies("192.0.2.1")).toBe(false);
    expect(pg.exempt("192.0.2.1")).toBe(true);
    await pg.store.close();
    const redis = configuredRateLimit({ ...env, KUSD_RATE_LIMIT_REDIS_URL: "redis://127.0.0.1:1" })!;
    expect(redis.store.kind).toBe("redis");
    await redis.store.close();
  });
});
