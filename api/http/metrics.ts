/**
 * kUSD's figures on GET /metrics (Prometheus, prom-client), in the registry Ponder serves its own
 * metrics from, so one scrape has both. Report figures are computed at scrape time from the
 * report at the indexed head (cached per block, so a scrape costs what a GET /api/por costs);
 * what is unknown is left out, never exported as 0. Paid settlements and refusals are counted as
 * they happen, every report build is timed, RPC calls are counted by purpose and method
 * (rpc-call-metrics.ts), every cache's size is read at scrape time (cache-metrics.ts), and so are
 * the readers' RPC and venue budgets (reader-budget-metrics.ts).
 */

import type { PorReport } from "@kusd/core";
import { type MetricSample, porMetricSamples } from "@kusd/core";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { MiddlewareHandler } from "hono";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { CacheSizes } from "../io/cache-sizes.js";
import { memo } from "../io/memo.js";
import type { ReaderBudgets } from "../reader-budgets.js";
import { registerCacheMetrics } from "./cache-metrics.js";
import { registerReaderBudgetMetrics } from "./reader-budget-metrics.js";
import { registerRpcCallMetrics } from "./rpc-call-metrics.js";

export type MetricSources = {
  /** The reserves report at the indexed head, or null when it cannot be built. */
  por(): Promise<PorReport | null>;
  /** The newest stored statement's signed unix time, or null (none yet). */
  statementSignedAt(): Promise<number | null>;
  /** Indexed registry violations (spec 2.6 rule 2). */
  violations(): Promise<number | null>;
  /** Indexed and chain head block per chain (null: unknown). */
  heads(): Promise<Array<{ chain: string; indexed: bigint | null; head: bigint | null }>>;
  /** Statement anchors by status (pending, landed), from the store. */
  anchors?(): Promise<Record<string, number>>;
  now?: () => number;
};

export type KusdMetrics = {
  /** Times one build of a report (e.g. "por"), for the histogram. */
  observeBuild(report: string, seconds: number): void;
  /** Counts paid answers on the gateway: settlements, and refusals by status and error code. */
  paidObserver(): MiddlewareHandler;
  /** Sets where the scrape-time figures come from (the app knows its services only later). */
  attach(sources: MetricSources): void;
  /** Counts one anchoring attempt's outcome (api/statements/anchor-service.ts). */
  anchorAttempt(outcome: "attested" | "found" | "failed"): void;
  /** Puts a part's caches on /metrics (cache-metrics.ts), read at every scrape. */
  watchCaches(sizes: CacheSizes): void;
  /** Puts the readers' budgets on /metrics (reader-budget-metrics.ts). */
  watchReaderBudgets(budgets: ReaderBudgets): void;
};

const PAID_ROUTES = new Set(["GET /paid/reserves", "POST /paid/instant-read"]);

const REPORT_GAUGES = [
  ["kusd_backing_ratio", ["basis"]],
  ["kusd_outstanding", []],
  ["kusd_total_supply", []],
  ["kusd_psm_usdc", ["psm"]],
  ["kusd_report_block", []],
] as const;

export function createKusdMetrics(registry: Registry): KusdMetrics {
  let sources: MetricSources | null = null;
  // One report per scrape, however many gauges collect from it.
  const perScrape = memo<MetricSample[] | null>({ max: 1, ttlMs: 500 });
  const reportSamples = () =>
    perScrape("por", async () =>
      sources
        ? sources.por().then(
            (r) => (r ? porMetricSamples(r) : null),
            () => null,
          )
        : null,
    );

  const perScrapeHeads = memo<Awaited<ReturnType<MetricSources["heads"]>>>({ max: 1, ttlMs: 500 });
  const heads = () => perScrapeHeads("heads", async () => (await sources?.heads().catch(() => [])) ?? []);
  // The scrape's own chain reads (the report figures, the heads) land before the RPC counts are read.
  const settle = () => Promise.all([reportSamples(), heads()]);
  registerRpcCallMetrics(registry, { settle });
  const caches = registerCacheMetrics(registry);
  const readerBudgets = registerReaderBudgetMetrics(registry, { settle });

  for (const [name, labelNames] of REPORT_GAUGES) {
    new Gauge({
      name,
      help: HELP[name],
      labelNames: [...labelNames],
      registers: [registry],
      async collect() {
        clear(this);
        for (const s of (await reportSamples()) ?? []) if (s.name === name) this.set(s.labels, s.value);
      },
    });
  }
  new Gauge({
    name: "kusd_statement_age_seconds",
    help: "Seconds since the newest signed statement's signed time (absent before the first)",
    registers: [registry],
    async collect() {
      clear(this);
      const signedAt = await sources?.statementSignedAt().catch(() => null);
      if (signedAt != null) this.set(Math.max(0, Math.floor((sources?.now?.() ?? Date.now()) / 1000) - signedAt));
    },
  });
  new Gauge({
    name: "kusd_registry_violations",
    help: "Registry violations indexed so far (spec 2.6 rule 2)",
    registers: [registry],
    async collect() {
      clear(this);
      const n = await sources?.violations().catch(() => null);
      if (n != null) this.set(n);
    },
  });
  new Gauge({
    name: "kusd_indexed_lag_blocks",
    help: "Chain head minus the indexed block, per chain",
    labelNames: ["chain"],
    registers: [registry],
    async collect() {
      clear(this);
      for (const h of await heads()) {
        if (h.indexed !== null && h.head !== null) this.set({ chain: h.chain }, Number(h.head - h.indexed));
      }
    },
  });
  const settlements = new Counter({
    name: "kusd_paid_settlements_total",
    help: "Paid answers delivered with an on-chain settlement",
    labelNames: ["route"],
    registers: [registry],
  });
  const refusals = new Counter({
    name: "kusd_paid_refusals_total",
    help: "Paid requests answered 4xx, by status and error code",
    labelNames: ["route", "status", "reason"],
    registers: [registry],
  });
  new Gauge({
    name: "kusd_statement_anchors",
    help: "Signed statements by anchor status on Base (EAS): pending (not yet attested or mined) and landed",
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      clear(this);
      const counts = (await sources?.anchors?.().catch(() => null)) ?? null;
      if (counts) for (const status of ["pending", "landed"]) this.set({ status }, counts[status] ?? 0);
    },
  });
  const anchorAttempts = new Counter({
    name: "kusd_statement_anchor_attempts_total",
    help: "Anchoring attempts by outcome: attested (this process's transaction mined), found (already on chain), failed (retried later)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const builds = new Histogram({
    name: "kusd_report_build_seconds",
    help: "Time to build a report at a block (cached builds are not counted)",
    labelNames: ["report"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  return {
    observeBuild: (report, seconds) => builds.observe({ report }, seconds),
    anchorAttempt: (outcome) => anchorAttempts.inc({ outcome }),
    watchCaches: (sizes) => caches.watch(sizes),
    watchReaderBudgets: (budgets) => readerBudgets.watch(budgets),
    attach: (s) => {
      sources = s;
    },
    paidObserver: () => async (c, next) => {
      await next();
      // Only the paid routes name themselves: any other path is "other", so a scan of random
      // paths cannot grow the label set without bound.
      const route = PAID_ROUTES.has(`${c.req.method} ${c.req.path}`) ? `${c.req.method} ${c.req.path}` : "other";
      const status = c.res.status;
      if (status >= 200 && status < 300 && c.res.headers.get("PAYMENT-RESPONSE")) settlements.inc({ route });
      else if (status >= 400 && status < 500) {
        const reason =
          status === 402
            ? refusedPayment(c.res.headers.get("PAYMENT-REQUIRED"))
            : await c.res
                .clone()
                .json()
                .then(
                  (b: { error?: { code?: string } }) => b?.error?.code ?? "unknown",
                  () => "unknown",
                );
        refusals.inc({ route, status: String(status), reason });
      }
    },
  };
}

/**
 * Empties a gauge before a scrape sets what is known. prom-client's reset() puts a label-less
 * gauge back to 0, which would export an unknown figure as 0; removing that one sample leaves the
 * gauge absent instead (the metrics test checks an unknown figure is not exported).
 */
function clear(gauge: Gauge): void {
  gauge.reset();
  gauge.remove({});
}

/** A 402's reason: x402's `error` (a payment offered and refused), or none offered yet. */
function refusedPayment(header: string | null): string {
  if (!header) return "payment_required";
  try {
    return decodePaymentRequiredHeader(header).error ?? "payment_required";
  } catch {
    return "payment_required";
  }
}

const HELP: Record<(typeof REPORT_GAUGES)[number][0], string> = {
  kusd_backing_ratio:
    "Backing ratio at the report's block: psm = PSM USDC / outstanding kUSD (spec 2.3 rule 2); aggregate_usd = collateral USD / liabilities USD",
  kusd_outstanding: "kUSD outstanding: totalSupply minus what the three PSMs hold (the liability)",
  kusd_total_supply: "kUSD totalSupply()",
  kusd_psm_usdc: "USDC held by each PSM",
  kusd_report_block: "Block the reserves figures are pinned to",
};
