/**
 * GET /metrics on the indexer: Ponder's own metrics and kUSD's figures in one scrape, each kUSD
 * figure equal to its independent source at the same moment (the report, a SQL count of the
 * indexed violations, the stored statement, the chain head), and the paid counters moving.
 */

import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_CACHE_LIMITS } from "../../api/cache-limits.js";
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

  it("shows every cache's size against its configured limit, read at scrape time", async () => {
    await s.caughtUp();
    const caches = async () => {
      const text = await scrape();
      const byName = new Map<string, { unit: string; limit: number; entries: number; bytes: number | undefined }>();
      for (const m of text.matchAll(/^kusd_cache_limit\{cache="([a-z_]+)",unit="([a-z]+)"\} (\d+)$/gm)) {
        const [, name, unit, limit] = m as unknown as [string, string, string, string];
        byName.set(name, {
          unit,
          limit: Number(limit),
          entries: value(text, `kusd_cache_entries{cache="${name}"}`)!,
          bytes: value(text, `kusd_cache_bytes{cache="${name}"}`),
        });
      }
      return { text, byName };
    };
    await (await fetch(`${s.indexerUrl}/api/por`)).text(); // the head's report, which a scrape reads, is kept first
    const before = await caches();
    // Node's and the process's own figures, registered once (Ponder's registry has them).
    expect(before.text.match(/^# TYPE process_resident_memory_bytes gauge$/gm)).toHaveLength(1);
    expect(before.text.match(/^# TYPE nodejs_heap_size_used_bytes gauge$/gm)).toHaveLength(1);
    expect(before.byName.get("por_reports")).toMatchObject({ unit: "bytes", limit: DEFAULT_CACHE_LIMITS.reportBytes });
    expect(before.byName.get("graphql_documents")).toMatchObject({ limit: DEFAULT_CACHE_LIMITS.graphqlDocuments });
    expect(before.byName.get("compressed")).toMatchObject({
      unit: "bytes",
      limit: DEFAULT_CACHE_LIMITS.compressedBytes,
    });
    for (const [name, c] of before.byName) {
      expect(c.unit === "bytes" ? c.bytes : c.entries, name).toBeLessThanOrEqual(c.limit);
      expect(c.bytes === undefined, name).toBe(c.unit === "entries");
    }
    // A report at a block nobody asked for yet is kept, weighed as its body and the body's UTF-8
    // bytes. A block an earlier test asked for is kept already, and the head can move between two
    // scrapes (a scrape keeps the head's report): such a try shows another change, and another
    // block is tried.
    const first = s.deployment.chains.base.contracts.kUSD!.block + 1;
    const last = s.deployment.chains.base.historyEndBlock;
    const changes: string[] = [];
    for (let tries = 0; tries < 5; tries++) {
      const seen = (await caches()).byName.get("por_reports")!;
      const block = first + Math.floor(Math.random() * (last - first));
      const res = await fetch(`${s.indexerUrl}/api/por?block=${block}`, { headers: { "accept-encoding": "identity" } });
      const body = await res.text();
      expect(res.status).toBe(200);
      const now = (await caches()).byName.get("por_reports")!;
      const weight = body.length + Buffer.byteLength(body);
      if (now.entries === seen.entries + 1 && now.bytes === seen.bytes! + weight) return;
      changes.push(
        `+${now.entries - seen.entries} entries, +${now.bytes! - seen.bytes!} bytes for a body weighing ${weight}`,
      );
    }
    throw new Error(`no past block's report was kept at its weight alone: ${changes.join("; ")}`);
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
