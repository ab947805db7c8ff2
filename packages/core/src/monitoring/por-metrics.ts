/**
 * The Prometheus figures of a reserves report (GET /metrics): what a monitor graphs and alerts
 * on. A figure the report does not know (null: a read failed) is left out, never exported as 0.
 */
import type { PorReport } from "../reserves/por/por-report.js";

export type MetricSample = { name: string; labels: Record<string, string>; value: number };

const PSMS = ["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const;

export function porMetricSamples(report: PorReport): MetricSample[] {
  const samples: MetricSample[] = [];
  const add = (name: string, labels: Record<string, string>, value: number | null | undefined) => {
    if (typeof value === "number" && Number.isFinite(value)) samples.push({ name, labels, value });
  };
  add("kusd_backing_ratio", { basis: "psm" }, report.solvency.psmSolvencyRatio);
  add("kusd_backing_ratio", { basis: "aggregate_usd" }, report.solvency.aggregateCollateralRatio);
  add("kusd_outstanding", {}, report.liabilities.kUSD.outstanding);
  add("kusd_total_supply", {}, report.liabilities.kUSD.totalSupply);
  for (const psm of PSMS) add("kusd_psm_usdc", { psm }, report.reserves[psm].usdcHeld);
  add("kusd_report_block", {}, report.blockNumber);
  return samples;
}
