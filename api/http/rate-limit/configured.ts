/**
 * The limits as the configuration sets them (KUSD_RATE_LIMIT*, KUSD_TRUSTED_PROXIES; docs/api.md#limits),
 * or null when KUSD_RATE_LIMIT=0. On PostgreSQL the counts live beside the operator store
 * (KUSD_STORE_SCHEMA), which every API process of a deployment shares already.
 */
import type { ServiceEnv } from "@kusd/config";
import type { Registry } from "prom-client";
import { DEFAULT_OPERATOR_SCHEMA } from "../../store/tables.js";
import { addressMatcher } from "./client-identity.js";
import { registerRateLimitMetrics } from "./metrics.js";
import type { RateLimitParts } from "./middleware.js";
import { openRateLimitStore } from "./store.js";

/**
 * 1,200 points a minute. A dashboard that reads every report at the head (about 15 routes, 1
 * point each) every 2 s spends 450, the reserves page's load about 15: neither comes near it. The
 * flood of issue 58 (32 loops of past-block reports and whole exports, 20 and 40 points each) spends
 * it in well under a second and then waits out the minute: about 60 snapshots a minute (at most
 * 240 billed RPC calls) instead of 67 calls a second.
 */
export const DEFAULT_POINTS = 1_200;
export const DEFAULT_WINDOW_SECONDS = 60;

export function configuredRateLimit(env: ServiceEnv, registry?: Registry): RateLimitParts | null {
  if (env.KUSD_RATE_LIMIT === false) return null;
  const store = openRateLimitStore({
    points: env.KUSD_RATE_LIMIT_POINTS ?? DEFAULT_POINTS,
    windowSeconds: env.KUSD_RATE_LIMIT_WINDOW_SECONDS ?? DEFAULT_WINDOW_SECONDS,
    ...(env.DATABASE_URL && { databaseUrl: env.DATABASE_URL }),
    ...(env.KUSD_RATE_LIMIT_REDIS_URL && { redisUrl: env.KUSD_RATE_LIMIT_REDIS_URL }),
    // The operator store's schema: every API process of a deployment shares it already.
    schema: env.KUSD_STORE_SCHEMA ?? DEFAULT_OPERATOR_SCHEMA,
  });
  return {
    store,
    trustedProxies: addressMatcher(env.KUSD_TRUSTED_PROXIES ?? []),
    exempt: addressMatcher(env.KUSD_RATE_LIMIT_EXEMPT ?? []),
    metrics: registry ? registerRateLimitMetrics(registry, store) : null,
  };
}
