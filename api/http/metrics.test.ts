import { buildPorReport } from "@kusd/core";
import { inputs } from "@kusd/core/fixtures";
import { Hono } from "hono";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createKusdMetrics } from "./metrics.js";

const line = (text: string, metric: string) =>
  text
    .split("\n")
    .find((l) => l.startsWith(metric))
    ?.split(" ")
    .at(-1);

describe("kUSD's /metrics figures", () => {
  it("are read at scrape time from the report, the store, the index and the chain", async () => {
    const registry = new Registry();
    const metrics = createKusdMetrics(registry);
    const report = buildPorReport(inputs());
    metrics.attach({
      por: async () => report,
      statementSignedAt: async () => 1_700_000_000,
      violations: async () => 3,
      heads: async () => [{ chain: "base", indexed: 95n, head: 100n }],
      now: () => 1_700_000_090_000,
    });
    metrics.observeBuild("por", 0.02);
    const text = await registry.metrics();
    expect(line(text, 'kusd_backing_ratio{basis="psm"}')).toBe(String(report.solvency.psmSolvencyRatio));
    expect(line(text, "kusd_outstanding")).toBe("900000");
    expect(line(text, 'kusd_psm_usdc{psm="psmMint"}')).toBe(String(report.reserves.psmMint.usdcHeld));
    expect(line(text, "kusd_statement_age_seconds")).toBe("90");
    expect(line(text, "kusd_registry_violations")).toBe("3");
    expect(line(text, 'kusd_indexed_lag_blocks{chain="base"}')).toBe("5");
    expect(line(text, 'kusd_report_build_seconds_count{report="por"}')).toBe("1");
  });

  it("leave out what is unknown instead of exporting 0", async () => {
    const registry = new Registry();
    createKusdMetrics(registry).attach({
      por: async () => null,
      statementSignedAt: async () => null,
      violations: async () => null,
      heads: async () => [{ chain: "base", indexed: null, head: 100n }],
    });
    const text = await registry.metrics();
    for (const m of [
      "kusd_backing_ratio{",
      "kusd_outstanding ",
      "kusd_statement_age_seconds ",
      "kusd_registry_violations ",
      "kusd_indexed_lag_blocks{",
    ]) {
      expect(
        text.split("\n").some((l) => l.startsWith(m)),
        m,
      ).toBe(false);
    }
  });

  it("count paid settlements, and refusals by status and error code", async () => {
    const registry = new Registry();
    const metrics = createKusdMetrics(registry);
    const app = new Hono();
    app.use("/paid/*", metrics.paidObserver());
    let answer = 0;
    const answers = [
      (c: any) => c.json({}, 200, { "PAYMENT-RESPONSE": "eyJ0eCI6MX0=" }),
      (c: any) => c.json({}, 200, { "PAYMENT-RESPONSE": "eyJ0eCI6MX0=" }),
      (c: any) => c.json({ error: { code: "payment_already_used", message: "…" } }, 409),
      (c: any) => c.json({}, 402),
    ];
    app.get("/paid/reserves", (c) => answers[answer++]!(c));
    app.get("/paid/no-such-route", (c) => c.json({ error: { code: "not_found" } }, 404));
    for (let i = 0; i < answers.length; i++) await app.request("/paid/reserves");
    await app.request("/paid/no-such-route");
    const text = await registry.metrics();
    expect(line(text, 'kusd_paid_settlements_total{route="GET /paid/reserves"}')).toBe("2");
    expect(
      line(text, 'kusd_paid_refusals_total{route="GET /paid/reserves",status="409",reason="payment_already_used"}'),
    ).toBe("1");
    expect(
      line(text, 'kusd_paid_refusals_total{route="GET /paid/reserves",status="402",reason="payment_required"}'),
    ).toBe("1");
    expect(line(text, 'kusd_paid_refusals_total{route="other",status="404",reason="not_found"}')).toBe("1");
  });
});
