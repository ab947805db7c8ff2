/**
 * GET /metrics on the indexer: Ponder's own metrics and kUSD's figures in one scrape, each kUSD
 * figure equal to its independent source at the same moment (the report, a SQL count of the
 * indexed violations, the stored statement, the chain head), and the paid counters moving.
 */

import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { promlint } from "../helpers/promlint.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const scrape = async () => (await fetch(`${s.indexerUrl}/metrics`)).text();
const value = (text: string, sample: string) => {
  const found = text.split("\n").find((l) => l.startsWith(`${sample} `));
  return found === undefined ? undefined : Number(found.slice(sample.length + 1));
};

describe("GET /metrics", () => {
  it("is Prometheus's text exposition format, version 0.0.4, with names promtool accepts", async () => {
    const res = await fetch(`${s.indexerUrl}/metrics`);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    expect(promlint(text)).toEqual([]);
    // Ponder's request durations, in seconds (they were in milliseconds).
    expect(text).toContain("# TYPE ponder_http_server_request_duration_seconds histogram");
  });

  it("serves Ponder's metrics and kUSD's, the report figures equal to /api/por at the same block", async () => {
    await s.caughtUp();
    // The head may move between two requests: retry until both were taken at one block.
    let text = "";
    let por: any = null;
    for (let i = 0; i < 5; i++) {
      por = await (await fetch(`${s.indexerUrl}/api/por`)).json();
      text = await scrape();
      if (value(text, "kusd_report_block") === por.blockNumber) break;
    }
    expect(text).toContain("ponder_indexing_function_duration");
    expect(value(text, "kusd_report_block")).toBe(por.blockNumber);
    expect(value(text, 'kusd_backing_ratio{basis="psm"}')).toBe(por.solvency.psmSolvencyRatio);
    expect(value(text, 'kusd_backing_ratio{basis="aggregate_usd"}')).toBe(por.solvency.aggregateCollateralRatio);
    expect(value(text, "kusd_outstanding")).toBe(por.liabilities.kUSD.outstanding);
    for (const psm of ["psmMint", "psmRetiredMint", "psmRedeemReserve"]) {
      expect(value(text, `kusd_psm_usdc{psm="${psm}"}`), psm).toBe(por.reserves[psm].usdcHeld);
    }
    expect(value(text, 'kusd_report_build_seconds_count{report="por"}')).toBeGreaterThan(0);
  });

  it("counts the indexed violations, the statement's age and the indexer's lag from their own sources", async () => {
    await (await fetch(`${s.indexerUrl}/api/por/signed`)).text(); // a statement exists
    const [rows] = (await s.db.select({ n: count() }).from(s.schema.registryViolation)) as [{ n: number }];
    const text = await scrape();
    expect(value(text, "kusd_registry_violations")).toBe(Number(rows.n));
    const signed = JSON.parse(
      JSON.parse(await (await fetch(`${s.indexerUrl}/api/por/signed`)).text()).signed_payload_canonical,
    );
    const age = value(text, "kusd_statement_age_seconds")!;
    expect(Math.abs(age - (Math.floor(Date.now() / 1000) - signed.timestamp))).toBeLessThanOrEqual(5);
    const head = Number(await s.client.getBlockNumber({ cacheTime: 0 }));
    const lag = value(text, 'kusd_indexed_lag_blocks{chain="base"}')!;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(head - (await s.indexedBlock()) + 2);
  });

  it("counts a paid request answered 402 as a refusal, with x402's reason", async () => {
    const refusals402 = (text: string) =>
      text.split("\n").filter((l) => l.startsWith('kusd_paid_refusals_total{route="GET /paid/reserves",status="402",'));
    const total = (lines: string[]) => lines.reduce((sum, l) => sum + Number(l.split(" ").at(-1)), 0);
    const before = total(refusals402(await scrape()));
    expect((await fetch(`${s.indexerUrl}/paid/reserves`)).status).toBe(402);
    const after = refusals402(await scrape());
    expect(total(after), after.join("\n")).toBe(before + 1);
    expect(after.every((l) => /reason="[^"]+"/.test(l))).toBe(true);
  });
});
