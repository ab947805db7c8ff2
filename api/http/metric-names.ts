/**
 * Metric names promtool's linter accepts (`promtool check metrics` prints nothing), for the
 * registries this service exports: its own, Ponder's and prom-client's default metrics.
 *
 * - prom-client's defaults include three gauges named like counters (`nodejs_active_handles_total`,
 *   `nodejs_active_requests_total`, `nodejs_active_resources_total`). Each is the sum of the
 *   labelled gauge of the same name without the suffix (`sum(nodejs_active_handles)`), so they
 *   are dropped.
 * - Ponder times its HTTP answers in milliseconds (`ponder_http_server_request_duration_ms`);
 *   Prometheus's base unit is the second, so the same observations are exported as
 *   `ponder_http_server_request_duration_seconds`, with the same buckets in seconds.
 */
import { Histogram, type Registry } from "prom-client";

export const COUNTER_NAMED_GAUGES = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
] as const;

/** Drops prom-client's default gauges that are named like counters (see above). */
export function dropCounterNamedGauges(registry: Registry): void {
  for (const name of COUNTER_NAMED_GAUGES) registry.removeSingleMetric(name);
}

type Observer = { observe(labels: Record<string, string>, value: number): void };

/**
 * Exports Ponder's millisecond request histogram in seconds: it leaves the registry, and Ponder's
 * server, which looks the histogram up on its metrics service at each answer, gets in its place
 * one that hands each observation, divided by 1,000, to a seconds histogram with the same labels.
 */
export function requestDurationInSeconds(
  registry: Registry,
  ponderMetrics: { ponder_http_server_request_duration_ms?: Observer },
): void {
  const name = "ponder_http_server_request_duration_ms";
  const ms = registry.getSingleMetric(name);
  if (!ms || !ponderMetrics[name]) return;
  registry.removeSingleMetric(name);
  // prom-client keeps a histogram's buckets as `upperBounds`, outside its typed interface.
  const buckets = (ms as unknown as { upperBounds: number[] }).upperBounds;
  const seconds = new Histogram({
    name: "ponder_http_server_request_duration_seconds",
    help: "Duration of the HTTP answers of Ponder's server (Ponder's own request histogram, in seconds)",
    labelNames: ["method", "path", "status"],
    buckets: buckets.map((b) => b / 1000),
    registers: [registry],
  });
  ponderMetrics[name] = { observe: (labels, value) => seconds.observe(labels, value / 1000) };
}
