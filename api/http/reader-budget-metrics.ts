/**
 * The readers' budgets on GET /metrics (api/reader-budgets.ts): what each allows, what is left,
 * what readers took, what was refused and how long calls waited. `kusd_reader_rpc_*` counts
 * JSON-RPC calls; `kusd_reader_venue_*` the venue's request weight. Refusals are calls (or venue
 * requests) refused; a request that met one answered 503.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { ReaderBudgets } from "../reader-budgets.js";

const KINDS = [
  { key: "rpc", unit: "calls", rate: "calls_per_second", perSecond: 1 },
  { key: "venue", unit: "weight", rate: "weight_per_minute", perSecond: 60 },
] as const;

/** `settle`: what a scrape reads from the chain itself (the report figures), awaited first so its calls are in the counts. */
export function registerReaderBudgetMetrics(
  registry: Registry,
  o: { settle?: () => Promise<unknown> } = {},
): { watch(budgets: ReaderBudgets): void } {
  let budgets: ReaderBudgets | null = null;
  const waits: Record<string, Histogram> = {};
  let stopWatching: Array<() => void> = [];
  for (const k of KINDS) {
    const of = () => budgets?.[k.key] ?? null;
    const prefix = `kusd_reader_${k.key}`;
    const what = k.key === "rpc" ? "JSON-RPC calls" : "venue request weight";
    new Gauge({
      name: `${prefix}_budget_${k.rate}`,
      help: `The readers' budget of ${what} (${k.key === "rpc" ? "a second" : "a minute"}), per process`,
      registers: [registry],
      collect() {
        const b = of();
        if (b) this.set(b.perSecond * k.perSecond);
      },
    });
    new Gauge({
      name: `${prefix}_budget_burst`,
      help: `The ${what} readers may take at once from a full budget`,
      registers: [registry],
      collect() {
        const b = of();
        if (b) this.set(b.burst);
      },
    });
    new Gauge({
      name: `${prefix}_tokens`,
      help: `${what} left in the readers' budget now; below zero, what waiting requests have reserved ahead`,
      registers: [registry],
      collect() {
        const b = of();
        if (b) this.set(b.tokens());
      },
    });
    new Counter({
      name: `${prefix}_${k.unit}_total`,
      help: `${what} readers caused, taken from their budget`,
      registers: [registry],
      async collect() {
        await o.settle?.().catch(() => {});
        const b = of();
        this.reset();
        if (b) this.inc(b.used().taken);
      },
    });
    new Counter({
      name: `${prefix}_refusals_total`,
      help: `${k.key === "rpc" ? "JSON-RPC calls" : "Venue requests"} the readers' budget refused (their request answered 503 reader_rpc_budget_exhausted)`,
      registers: [registry],
      async collect() {
        await o.settle?.().catch(() => {});
        const b = of();
        this.reset();
        if (b) this.inc(b.used().refusals);
      },
    });
    waits[k.key] = new Histogram({
      name: `${prefix}_wait_seconds`,
      help: `How long a ${k.key === "rpc" ? "call" : "venue request"} that found the readers' budget empty waited for it (those served)`,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }
  return {
    watch(b) {
      for (const stop of stopWatching) stop();
      budgets = b;
      stopWatching = KINDS.map((k) => b[k.key].onWait((seconds) => waits[k.key]!.observe(seconds)));
    },
  };
}
