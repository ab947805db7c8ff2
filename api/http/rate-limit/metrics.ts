/**
 * The limits on /metrics: refusals by the cost row that refused them, the store in use and the
 * budget, and counts the store failed to keep (each such request was served uncounted).
 */
import { Counter, Gauge, type Registry } from "prom-client";
import { COSTS, type CostName } from "./cost-table.js";
import type { Policy } from "./headers.js";
import type { StoreKind } from "./store.js";

export type RateLimitMetrics = {
  refused(route: CostName): void;
  storeFailed(): void;
};

export function registerRateLimitMetrics(
  registry: Registry,
  store: { kind: StoreKind; policy: Policy },
): RateLimitMetrics {
  const refusals = new Counter({
    name: "kusd_rate_limited_total",
    help: "Requests refused 429 (rate_limited), by the cost row that charged them (docs/api.md#limits)",
    labelNames: ["route"],
    registers: [registry],
  });
  // Every row that can refuse starts at 0, so a rate over it exists before the first refusal.
  for (const [route, cost] of Object.entries(COSTS)) if (cost.points > 0) refusals.inc({ route }, 0);
  const failures = new Counter({
    name: "kusd_rate_limit_store_failures_total",
    help: "Requests served uncounted because the rate limit store failed or was slow (the limits fail open)",
    labelNames: ["store"],
    registers: [registry],
  });
  failures.inc({ store: store.kind }, 0);
  new Gauge({
    name: "kusd_rate_limit_store",
    help: "The store each client's spent points are kept in: memory (this process), postgres or redis (shared by the API processes)",
    labelNames: ["store"],
    registers: [registry],
  }).set({ store: store.kind }, 1);
  new Gauge({
    name: "kusd_rate_limit_budget_points",
    help: "Points each client may spend per window (KUSD_RATE_LIMIT_POINTS)",
    registers: [registry],
  }).set(store.policy.points);
  new Gauge({
    name: "kusd_rate_limit_window_seconds",
    help: "The window a client's budget is counted over (KUSD_RATE_LIMIT_WINDOW_SECONDS)",
    registers: [registry],
  }).set(store.policy.windowSeconds);
  return {
    refused: (route) => refusals.inc({ route }),
    storeFailed: () => failures.inc({ store: store.kind }),
  };
}
