/**
 * `npm run bench:soak [-- --minutes N --warmup N --loops N --sample-seconds N --env NAME=VALUE ...]`:
 * memory and latency of the indexer+API process over a long mixed load, on a devnet of its own
 * with a block and a PSM swap every 2 s (PGlite, or PostgreSQL with BENCH_DATABASE_URL):
 *   - `--loops` (8) loops, back to back, over the 11 REST reports at the head and at random past
 *     blocks, GraphQL queries (the README's examples, and pages and reports with varying
 *     variables) and CSV/NDJSON exports;
 *   - churned GraphQL subscriptions: open one over server-sent events, read 3 events, close; the
 *     same over WebSocket; again;
 *   - MCP calls in turn: tools/list, the `por` tool at a random block, `verify_report` of
 *     /api/por at a random block against the devnet's RPC.
 * Every `--sample-seconds` (30): the process's RSS, its heap used after a full GC (POST
 * /__bench/gc; the process runs with --expose-gc and KUSD_BENCH_ROUTES=1) and every cache's size
 * from /metrics. Prints a table over time, the caches, and the verdict against issue 58's goals:
 * RSS growth over the second half under 0.5 MB a minute, peak RSS under 1 GB, p99 of the last 10
 * minutes under 1.5 × the first 10 after `--warmup` (10 minutes), no 5xx. The per-client limits
 * and the readers' budgets are off (limits-off.ts: one client makes all of it, and a budget's 503
 * is not what this measures); `--env` passes more variables to the process. Not a test: it
 * asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { EXAMPLE_QUERIES } from "../api/graphql/examples.js";
import { startIndexer } from "../stack/indexer.js";
import {
  type Collected,
  type Subscription,
  sseSubscriptions,
  wsSubscriptions,
} from "../test/helpers/graphql-streams.js";
import { freePort } from "../test/helpers/ports.js";
import { benchDevnet } from "./bench-devnet.js";
import { swapEveryBlock } from "./block-cadence.js";
import { Latencies, processRssMb, quantile, slope } from "./latency.js";
import { envFromFlags, LIMITS_OFF } from "./limits-off.js";
import { parseSamples } from "./ponder-metrics.js";
import { atMost, type Figure, recordFigures } from "./results.js";
import { createScratchDatabase } from "./scratch-database.js";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "60" },
    warmup: { type: "string", default: "10" },
    loops: { type: "string", default: "8" },
    "sample-seconds": { type: "string", default: "30" },
    /** A row of the printed table every this many minutes (every sample is kept). */
    "table-minutes": { type: "string", default: "5" },
    /** NAME=VALUE for the API process, repeatable (e.g. a cache limit). */
    env: { type: "string", multiple: true, default: [] },
  },
});
const MINUTES = Number(values.minutes);
const WARMUP = Math.min(Number(values.warmup), MINUTES / 2);
const LOOPS = Number(values.loops);
const SAMPLE_MS = Number(values["sample-seconds"]) * 1000;
const extraEnv = envFromFlags(values.env);

const dir = mkdtempSync(join(tmpdir(), "kusd-bench-soak-"));
const deploymentFile = join(dir, "deployment.json");
process.env.DEVNET_DEPLOYMENT = deploymentFile;

/** The REST reports (the 11 verify_report knows), with the query each needs. */
const REPORTS = [
  "/api/por",
  "/api/stats",
  "/api/apy",
  "/api/psm-status",
  "/api/risk-status",
  "/api/por/redemption-plan?amount=1000",
  "/api/por/accounts/violations",
  "/api/history",
  "/api/honesty-index",
  "/api/euler",
  "/api/hedge-ledger",
];
/** Each export with the parameter that ends it at a past block: event tables by `toBlock`, balances as of `block`. */
const EXPORTS = [
  "/api/export/psmSwaps.csv?limit=500&toBlock=",
  "/api/export/vaultEvents.ndjson?limit=500&toBlock=",
  "/api/export/registryTransfers.csv?limit=500&toBlock=",
  "/api/export/tokenBalances.csv?limit=500&block=",
];
const SWAPS_SUBSCRIPTION = "subscription($from: BigInt) { psmSwaps(fromBlock: $from) { kind swap { blockNumber } } }";

type Sample = {
  minute: number;
  rssMb: number | null;
  heapAfterGcMb: number;
  externalMb: number;
  caches: Map<string, { entries: number; bytes: number | null; limit: number; unit: string }>;
};

async function main() {
  console.log(`devnet and stack ...`);
  const devnet = await benchDevnet({ scale: 1, file: deploymentFile });
  const d = devnet.deployment;
  const server = process.env.BENCH_DATABASE_URL;
  const databaseUrl = server ? createScratchDatabase(server, "kusd_bench_soak").url : undefined;
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    databaseUrl,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: "bench_soak_views",
    env: {
      KUSD_STORE_DIR: join(dir, "store"),
      KUSD_STORE_SCHEMA: `bench_soak_store_${process.pid}`,
      KUSD_BENCH_ROUTES: "1",
      ...LIMITS_OFF,
      ...extraEnv,
    },
    nodeArgs: ["--expose-gc"],
  });
  const url = indexer.url;
  const pid = indexer.process.pid!;
  const firstBlock = d.chains.base.contracts.kUSD!.block;
  let head = d.chains.base.historyEndBlock;
  const pastBlock = () => firstBlock + Math.floor(Math.random() * (head - firstBlock));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

  const latencies = new Latencies();
  // MCP's calls (verify_report re-derives a whole report) apart from the report loops'.
  const mcpLatencies = new Latencies();
  const statuses = new Map<number, number>();
  const fivexx: string[] = [];
  let failures = 0;
  let started = 0;
  const now = () => performance.now() - started;
  // Refusals by status, route and error code: a 4xx is the load's own doing (a report asked
  // before its contract existed), a 5xx the server's.
  const refusals = new Map<string, number>();
  const count = (status: number, what: string, body: string) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status >= 500 && fivexx.length < 20) fivexx.push(`${status} ${what}: ${body.slice(0, 300)}`);
    if (status >= 400) {
      const code = /"code":"([a-z_]+)"/.exec(body)?.[1] ?? "";
      const key = `${status} ${what.split("?")[0]} ${code}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    }
  };
  const timed = async (what: string, init?: RequestInit, into = latencies) => {
    const t = performance.now();
    try {
      const res = await fetch(`${url}${what}`, { ...init, headers: { "accept-encoding": "br", ...init?.headers } });
      const body = await res.text();
      into.add(now(), performance.now() - t);
      count(res.status, what, body);
    } catch (e) {
      failures++;
      if (failures <= 5) console.error(`[soak] ${what}: ${(e as Error).message}`);
    }
  };
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    timed("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });

  /** One request of the mixed load, chosen at random. */
  const oneRequest = (): Promise<void> => {
    const kind = Math.random();
    if (kind < 0.3) return timed(pick(REPORTS));
    if (kind < 0.6) {
      const path = pick(REPORTS);
      return timed(`${path}${path.includes("?") ? "&" : "?"}block=${pastBlock()}`);
    }
    if (kind < 0.7) return graphql(pick(EXAMPLE_QUERIES).query);
    if (kind < 0.8)
      return graphql(
        "query($n: Int) { psmSwaps(first: $n, orderDirection: desc) { nodes { txHash blockNumber kusdAmount } } }",
        {
          n: 1 + Math.floor(Math.random() * 100),
        },
      );
    if (kind < 0.9)
      return graphql("query($b: String) { reserves(block: $b) { timestamp solvency { status psmSolvencyRatio } } }", {
        b: String(pastBlock()),
      });
    return timed(`${pick(EXPORTS)}${pastBlock()}`);
  };

  let running = true;
  const loops: Promise<void>[] = [];
  let subscriptionsChurned = 0;
  let subscriptionFailures = 0;
  let mcpCycles = 0;

  /** Opens a subscription, reads 3 events, closes it: over SSE, then WebSocket, in turn. */
  const churnSubscriptions = async () => {
    for (let i = 0; running; i++) {
      const sub: Subscription = { query: SWAPS_SUBSCRIPTION, variables: { from: String(head - 1) }, field: "psmSwaps" };
      let close: (() => unknown) | null = null;
      try {
        const opened =
          i % 2 === 0
            ? await sseSubscriptions(`${url}/graphql`, { swaps: sub })
            : await wsSubscriptions(`${url.replace(/^http/, "ws")}/graphql`, { swaps: sub });
        close = opened.close;
        const swaps = opened.streams.swaps as Collected;
        await swaps.waitFor(() => swaps.items.length >= 3, "3 events", 30_000);
        subscriptionsChurned++;
      } catch (e) {
        if (subscriptionFailures++ < 5) console.error(`[soak] subscription: ${(e as Error).message.slice(0, 300)}`);
      } finally {
        await close?.();
      }
    }
  };

  /** tools/list, a report tool and verify_report, each a JSON-RPC call of its own. */
  const churnMcp = async () => {
    let id = 0;
    const call = (method: string, params?: unknown) =>
      timed(
        "/mcp",
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, ...(params !== undefined && { params }) }),
        },
        mcpLatencies,
      );
    while (running) {
      await call("tools/list");
      await call("tools/call", { name: "por", arguments: { block: String(pastBlock()) } });
      await call("tools/call", {
        name: "verify_report",
        arguments: { path: `/api/por?block=${pastBlock()}`, rpc: d.chains.base.rpcUrl },
      });
      mcpCycles++;
    }
  };

  const samples: Sample[] = [];
  const sample = async (): Promise<Sample> => {
    const rssMb = processRssMb(pid, "VmRSS");
    const memory = (await (await fetch(`${url}/__bench/gc`, { method: "POST" })).json()) as {
      collected: boolean;
      heapUsedBytes: number;
      externalBytes: number;
    };
    if (!memory.collected) throw new Error("the API process did not run with --expose-gc");
    const caches: Sample["caches"] = new Map();
    for (const s of parseSamples(await (await fetch(`${url}/metrics`)).text())) {
      const name = s.labels.cache;
      if (!name || !s.name.startsWith("kusd_cache_")) continue;
      const c = caches.get(name) ?? { entries: 0, bytes: null, limit: 0, unit: "entries" };
      if (s.name === "kusd_cache_entries") c.entries = s.value;
      else if (s.name === "kusd_cache_bytes") c.bytes = s.value;
      else if (s.name === "kusd_cache_limit") {
        c.limit = s.value;
        c.unit = s.labels.unit ?? "entries";
      }
      caches.set(name, c);
    }
    return {
      minute: now() / 60_000,
      rssMb,
      heapAfterGcMb: memory.heapUsedBytes / 2 ** 20,
      externalMb: memory.externalBytes / 2 ** 20,
      caches,
    };
  };

  let cadence: Awaited<ReturnType<typeof swapEveryBlock>> | null = null;
  try {
    await indexer.waitForBlock("base", head, 300_000);
    // The first signed statement and the indexer's catch-up finish before the load starts.
    await fetch(`${url}/api/por/signed`);
    await new Promise((r) => setTimeout(r, 5_000));
    cadence = await swapEveryBlock(d);
    const followHead = setInterval(async () => {
      const status = (await (await fetch(`${url}/status`)).json().catch(() => null)) as {
        base?: { block?: { number: number } };
      } | null;
      head = status?.base?.block?.number ?? head;
    }, 2_000);
    const rssAtStart = processRssMb(pid, "VmRSS");
    console.log(
      `load: ${LOOPS} loops, subscriptions churned over SSE and WebSocket, MCP calls, a swap every 2 s; ${MINUTES} minutes, warm-up ${WARMUP}; RSS at start ${rssAtStart?.toFixed(0)} MB`,
    );
    started = performance.now();
    for (let i = 0; i < LOOPS; i++)
      loops.push(
        (async () => {
          while (running) await oneRequest();
        })(),
      );
    loops.push(churnSubscriptions(), churnMcp());
    const end = started + MINUTES * 60_000;
    while (performance.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, Math.max(0, end - performance.now()))));
      const s = await sample();
      samples.push(s);
      const minute = Math.floor(s.minute);
      const lastMinute = latencies.between((minute - 1) * 60_000, minute * 60_000);
      const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
      console.log(
        `${s.minute.toFixed(1).padStart(5)} min  load ${load}  RSS ${s.rssMb?.toFixed(0)} MB  heap after GC ${s.heapAfterGcMb.toFixed(0)} MB  external ${s.externalMb.toFixed(0)} MB  last minute p50 ${quantile(lastMinute, 0.5).toFixed(0)} ms p99 ${quantile(lastMinute, 0.99).toFixed(0)} ms (${lastMinute.length} requests)  5xx ${count5xx(statuses)}`,
      );
    }
    running = false;
    await Promise.all(loops);
    clearInterval(followHead);
    report({ samples, latencies, statuses, fivexx, peakMb: processRssMb(pid, "VmHWM"), rssAtStart });
    console.log("\nrefusals (status, route, code):");
    for (const [key, n] of [...refusals].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(6)}  ${key}`);
    console.log(
      `\nswaps mined ${cadence.swaps()} (${cadence.failures()} failed), subscriptions churned ${subscriptionsChurned} (${subscriptionFailures} failed), MCP cycles ${mcpCycles} (calls p50 ${quantile(mcpLatencies.all(), 0.5).toFixed(0)} ms, p99 ${quantile(mcpLatencies.all(), 0.99).toFixed(0)} ms), load requests ${latencies.count} (${failures} without an answer); statuses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`,
    );
  } finally {
    running = false;
    await cadence?.stop().catch(() => {});
    await indexer.stop();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const count5xx = (statuses: Map<number, number>) =>
  [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);

function report(o: {
  samples: Sample[];
  latencies: Latencies;
  statuses: Map<number, number>;
  fivexx: string[];
  peakMb: number | null;
  rssAtStart: number | null;
}) {
  const { samples, latencies } = o;
  const every = Number(values["table-minutes"]);
  const f0 = (x: number | null | undefined) =>
    x === null || x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(0);
  console.log(`\n| minute | RSS MB | heap after GC MB | p50 ms | p99 ms | requests |`);
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (let m = every; m <= Math.round(samples.at(-1)!.minute); m += every) {
    const s = samples.reduce((a, x) => (Math.abs(x.minute - m) < Math.abs(a.minute - m) ? x : a));
    const window = latencies.between((m - 1) * 60_000, m * 60_000);
    console.log(
      `| ${m} | ${f0(s.rssMb)} | ${f0(s.heapAfterGcMb)} | ${f0(quantile(window, 0.5))} | ${f0(quantile(window, 0.99))} | ${window.length} |`,
    );
  }

  // Each cache at the end of the warm-up, half-way and at the end, against its limit.
  const at = (minute: number) =>
    samples.reduce((a, s) => (Math.abs(s.minute - minute) < Math.abs(a.minute - minute) ? s : a));
  const marks = [at(WARMUP), at(MINUTES / 2), samples.at(-1)!];
  const size = (c: { entries: number; bytes: number | null } | undefined) =>
    c ? `${c.entries}${c.bytes !== null ? ` (${(c.bytes / 2 ** 20).toFixed(1)} MB)` : ""}` : "n/a";
  console.log(
    `\n| cache | limit | entries at ${marks.map((s) => `${s.minute.toFixed(0)} min`).join(" | entries at ")} |`,
  );
  console.log(`|---|---:|${marks.map(() => "---:").join("|")}|`);
  for (const [name, c] of marks.at(-1)!.caches)
    console.log(
      `| ${name} | ${c.unit === "bytes" ? `${(c.limit / 2 ** 20).toFixed(0)} MB` : c.limit} | ${marks.map((s) => size(s.caches.get(name))).join(" | ")} |`,
    );

  const second = samples.filter((s) => s.minute >= MINUTES / 2 && s.rssMb !== null);
  const rssSlope = slope(second.map((s) => ({ x: s.minute, y: s.rssMb! })));
  const heapSlope = slope(second.map((s) => ({ x: s.minute, y: s.heapAfterGcMb })));
  const peak = o.peakMb ?? Math.max(...samples.map((s) => s.rssMb ?? 0));
  const window = Math.min(10, (MINUTES - WARMUP) / 2);
  const first = quantile(latencies.between(WARMUP * 60_000, (WARMUP + window) * 60_000), 0.99);
  const last = quantile(latencies.between((MINUTES - window) * 60_000, MINUTES * 60_000), 0.99);
  const drift = last / first;
  const errors = count5xx(o.statuses);
  const verdict = (ok: boolean) => (ok ? "yes" : "**no**");
  console.log(`\n| goal | value | target | holds |\n|---|---:|---|---|`);
  console.log(
    `| RSS growth over the second half (minutes ${MINUTES / 2}–${MINUTES}) | ${rssSlope.toFixed(2)} MB/min | < 0.5 MB/min | ${verdict(rssSlope < 0.5)} |`,
  );
  console.log(`| heap after GC, growth over the second half | ${heapSlope.toFixed(2)} MB/min |  |  |`);
  console.log(
    `| peak RSS (VmHWM; ${f0(o.rssAtStart)} MB when the load began) | ${f0(peak)} MB | < 1024 MB | ${verdict(peak < 1024)} |`,
  );
  console.log(
    `| p99 drift: last ${window} min (${f0(last)} ms) / first ${window} after warm-up (${f0(first)} ms) | ${drift.toFixed(2)} × | < 1.5 × | ${verdict(drift < 1.5)} |`,
  );
  console.log(`| 5xx answers | ${errors} | 0 | ${verdict(errors === 0)} |`);
  for (const line of o.fivexx) console.log(`  ${line}`);
  const figures: Figure[] = [
    {
      figure: `soak ${MINUTES} min: RSS growth over the second half`,
      value: rssSlope,
      unit: "MB/min",
      target: "< 0.5 MB/min",
      holds: rssSlope < 0.5,
    },
    { figure: `soak ${MINUTES} min: peak RSS`, value: peak, unit: "MB", ...atMost(peak, 1024, "MB") },
    {
      figure: `soak ${MINUTES} min: p99 of the last ${window} min`,
      value: last,
      unit: "ms",
      baseline: { name: `p99 of the first ${window} min after warm-up`, value: first },
      target: "< 1.5 ×",
      holds: drift < 1.5,
    },
    { figure: `soak ${MINUTES} min: 5xx answers`, value: errors, unit: "", ...atMost(errors, 0, "") },
  ];
  recordFigures("soak", figures);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
