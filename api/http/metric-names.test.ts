import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { promlint } from "../../test/helpers/promlint.js";
import { dropCounterNamedGauges, requestDurationInSeconds } from "./metric-names.js";

describe("metric names promtool accepts", () => {
  it("prom-client's defaults without the gauges named like counters", async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    expect(promlint(await registry.metrics()).sort()).toEqual([
      'nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
      'nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
      'nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
    ]);
    dropCounterNamedGauges(registry);
    const text = await registry.metrics();
    expect(promlint(text)).toEqual([]);
    // The per-type gauges that sum to the dropped totals stay.
    expect(text).toContain("# TYPE nodejs_active_handles gauge");
  });

  it("Ponder's millisecond request histogram exported in seconds, its observations carried over", async () => {
    const registry = new Registry();
    // Ponder's histogram as its metrics service declares it (node_modules/ponder/dist/esm/internal/metrics.js).
    const ponder = {
      ponder_http_server_request_duration_ms: new Histogram({
        name: "ponder_http_server_request_duration_ms",
        help: "Duration of HTTP responses served the server",
        labelNames: ["method", "path", "status"],
        buckets: [1, 5, 10, 50, 100, 500, 1000],
        registers: [registry],
      }),
    };
    expect(promlint(await registry.metrics()).sort()).toEqual([
      "ponder_http_server_request_duration_ms metric names should not contain abbreviated units",
    ]);
    requestDurationInSeconds(registry, ponder);
    // What Ponder's server does at each answer: look the histogram up, observe milliseconds.
    ponder.ponder_http_server_request_duration_ms.observe({ method: "GET", path: "/ready", status: "2XX" }, 250);
    const text = await registry.metrics();
    expect(promlint(text)).toEqual([]);
    expect(text).not.toContain("_duration_ms");
    expect(text).toContain(
      'ponder_http_server_request_duration_seconds_bucket{le="0.5",method="GET",path="/ready",status="2XX"} 1',
    );
    expect(text).toContain(
      'ponder_http_server_request_duration_seconds_bucket{le="0.1",method="GET",path="/ready",status="2XX"} 0',
    );
    expect(text).toContain(
      'ponder_http_server_request_duration_seconds_sum{method="GET",path="/ready",status="2XX"} 0.25',
    );
  });
});
