import { describe, expect, it } from "vitest";
import { allReadsFailed, inputs, snapshot } from "../reserves/por/fixture.js";
import { buildPorReport } from "../reserves/por/por-report.js";
import { porMetricSamples } from "./por-metrics.js";

const value = (samples: ReturnType<typeof porMetricSamples>, name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && JSON.stringify(s.labels) === JSON.stringify(labels))?.value;

describe("porMetricSamples", () => {
  it("exports the report's own figures: backing ratios, outstanding, supply, USDC per PSM, block", () => {
    const report = buildPorReport(inputs());
    const samples = porMetricSamples(report);
    expect(value(samples, "kusd_backing_ratio", { basis: "psm" })).toBe(report.solvency.psmSolvencyRatio);
    expect(value(samples, "kusd_backing_ratio", { basis: "aggregate_usd" })).toBe(
      report.solvency.aggregateCollateralRatio,
    );
    // By hand from fixture.ts: 1,000,000 kUSD supply, 100,000 of it in the PSMs; 900,000 USDC in the PSMs.
    expect(value(samples, "kusd_outstanding")).toBe(900_000);
    expect(value(samples, "kusd_total_supply")).toBe(1_000_000);
    const psmUsdc = ["psmMint", "psmRetiredMint", "psmRedeemReserve"].map(
      (psm) => value(samples, "kusd_psm_usdc", { psm })!,
    );
    expect(psmUsdc.reduce((a, b) => a + b, 0)).toBe(900_000);
    expect(value(samples, "kusd_report_block")).toBe(report.blockNumber);
  });

  it("leaves out what the report does not know, rather than exporting 0", () => {
    const samples = porMetricSamples(buildPorReport(inputs(allReadsFailed(snapshot()))));
    expect(samples.map((s) => s.name)).toEqual(["kusd_report_block"]);
  });
});
