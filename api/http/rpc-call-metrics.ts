/**
 * What the service spends at its RPC provider, on GET /metrics: kusd_rpc_calls_total{purpose,method}
 * counts JSON-RPC calls as providers bill them (each call inside a JSON-RPC batch counts one), and
 * kusd_rpc_http_requests_total{purpose} the HTTP requests that carried them.
 *
 * Our own clients are counted at their transport (packages/rpc/src/rpc-calls.ts). Ponder's requests (the
 * indexer's getLogs, blocks, and the calls of indexing functions through `context.client`) go
 * through Ponder's own transport, which we do not wrap: Ponder counts each one it sends in
 * ponder_rpc_request_duration (successes) and ponder_rpc_request_error_total (failures), one HTTP
 * request per call, and they are read from there under purpose "indexing", so nothing is counted
 * twice. The monitor (packages/monitor) reads the API over HTTP and makes no RPC calls.
 */

import { processRpcTally, type RpcTally } from "@kusd/rpc";
import { Counter, type Registry } from "prom-client";

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/** Ponder's RPC requests by method (successful + failed), when this registry is Ponder's. */
async function ponderRequests(registry: Registry): Promise<Map<string, number>> {
  const byMethod = new Map<string, number>();
  const add = (method: unknown, n: number) => {
    if (typeof method === "string" && n > 0) byMethod.set(method, (byMethod.get(method) ?? 0) + n);
  };
  const done = registry.getSingleMetric("ponder_rpc_request_duration");
  for (const s of ((await done?.get())?.values ?? []) as Sample[])
    if (s.metricName === "ponder_rpc_request_duration_count") add(s.labels.method, s.value);
  const failed = registry.getSingleMetric("ponder_rpc_request_error_total");
  for (const s of ((await failed?.get())?.values ?? []) as Sample[]) add(s.labels.method, s.value);
  return byMethod;
}

/**
 * Registers both counters. `settle`: what a scrape reads from the chain itself (the report
 * figures), awaited first so a scrape's own calls are in its counts.
 */
export function registerRpcCallMetrics(
  registry: Registry,
  o: { tally?: RpcTally; settle?: () => Promise<unknown> } = {},
): void {
  const tally = o.tally ?? processRpcTally();
  new Counter({
    name: "kusd_rpc_calls_total",
    help: "JSON-RPC calls sent, as providers bill them (each call inside a JSON-RPC batch counts one), by purpose (indexing, reports, live reads, paid settlement, monitor) and method; indexing includes Ponder's own requests",
    labelNames: ["purpose", "method"],
    registers: [registry],
    async collect() {
      await o.settle?.().catch(() => {});
      const [ponder, own] = [await ponderRequests(registry), tally.snapshot()];
      this.reset();
      for (const c of own.calls) this.inc({ purpose: c.purpose, method: c.method }, c.value);
      for (const [method, n] of ponder) this.inc({ purpose: "indexing", method }, n);
    },
  });
  new Counter({
    name: "kusd_rpc_http_requests_total",
    help: "HTTP requests to the RPC provider by purpose (a JSON-RPC batch is one request carrying many calls)",
    labelNames: ["purpose"],
    registers: [registry],
    async collect() {
      await o.settle?.().catch(() => {});
      const [ponder, own] = [await ponderRequests(registry), tally.snapshot()];
      this.reset();
      for (const [purpose, n] of Object.entries(own.requests)) this.inc({ purpose }, n);
      // Ponder sends one call per HTTP request.
      const indexing = [...ponder.values()].reduce((a, b) => a + b, 0);
      if (indexing > 0) this.inc({ purpose: "indexing" }, indexing);
    },
  });
}
