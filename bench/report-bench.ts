/**
 * `npm run bench:reports [-- --clients N --seconds N]`: the reports against the server's own
 * limit, in one run on the devnet (PGlite, or PostgreSQL with BENCH_DATABASE_URL/DATABASE_URL):
 * for /api/por, /api/stats, /api/apy and /api/por/signed, N clients (default 20) on keep-alive
 * connections for a few seconds each, paired with GET /__bench/constant of the same byte size
 * served by the same process (KUSD_BENCH_ROUTES=1). Prints req/s, p50 and p99 of each, the ratio
 * report/constant, and the peak RSS of the API+indexer process. Every request asks for
 * `--encoding` (default br, as browsers do; Node's fetch alone would ask gzip), so both sides are
 * served compressed. Not a test: it asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDevnet } from "../devnet/devnet.js";
import { startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { atLeast, atMost, type Figure, recordFigures } from "./results.js";
import { createScratchDatabase } from "./scratch-database.js";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    seconds: { type: "string", default: "8" },
    only: { type: "string" },
    /** Accept-Encoding of every request (both sides compressed alike); "identity" for none. */
    encoding: { type: "string", default: "br" },
  },
});
const asked = { headers: { "accept-encoding": values.encoding } };
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const dir = mkdtempSync(join(tmpdir(), "kusd-bench-reports-"));
const deploymentFile = join(dir, "deployment.json");
process.env.DEVNET_DEPLOYMENT = deploymentFile;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

type Load = { rps: number; p50: number; p99: number; errors: number };

/** `clients` loops requesting `url` for `seconds`; every answer must be 200 and is read to its end. */
async function load(url: string): Promise<Load> {
  const warmUntil = performance.now() + 1_000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < warmUntil) await (await fetch(url, asked)).arrayBuffer();
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(url, asked); // Node's fetch keeps connections alive
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / ((performance.now() - started) / 1000),
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    errors,
  };
}

/** Resident set (VmRSS) or its peak (VmHWM) of a process, in MB; null off Linux. */
function rssMb(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

async function main() {
  const devnet = await startDevnet({
    ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile,
    reuse: false,
  });
  const server = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  // A database of the bench's own on that server, dropped when the bench ends.
  const databaseUrl = server ? createScratchDatabase(server, "kusd_bench_reports").url : undefined;
  const indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    databaseUrl,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: "bench_reports_views",
    env: {
      KUSD_STORE_DIR: join(dir, "store"),
      KUSD_STORE_SCHEMA: `bench_reports_store_${process.pid}`,
      KUSD_BENCH_ROUTES: "1",
    },
    // BENCH_CPU_PROF=dir: a V8 CPU profile of the API+indexer process, written when it stops.
    // BENCH_NODE_ARGS: extra V8/Node flags for that process (e.g. heap limits), space-separated.
    nodeArgs: [
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    ],
  });
  try {
    await indexer.waitForBlock("base", devnet.deployment.chains.base.historyEndBlock, 300_000);
    const url = indexer.url;
    // Let the first signed statement and the indexer's catch-up finish before measuring.
    await fetch(`${url}/api/por/signed`);
    await new Promise((r) => setTimeout(r, 5_000));
    const rows: string[] = [];
    const figures: Figure[] = [];
    const line = (cells: (string | number)[]) => rows.push(`| ${cells.join(" | ")} |`);
    line(["target", "bytes", "req/s", "p50 ms", "p99 ms", "constant req/s", "constant p99 ms", "report / constant"]);
    line(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]);
    const rssBefore = rssMb(indexer.process.pid!, "VmRSS");
    for (const path of ["/api/por", "/api/stats", "/api/apy", "/api/por/signed"].filter(
      (p) => !values.only || values.only.split(",").includes(p),
    )) {
      const first = await fetch(`${url}${path}`, asked);
      if (first.status !== 200) throw new Error(`${path}: ${first.status} ${await first.text()}`);
      // fetch decodes the body; the server's Content-Length is the coded size on the wire.
      const wire = Number(first.headers.get("content-length") ?? Number.NaN);
      const bytes = (await first.text()).length;
      if (path === "/api/por")
        figures.push({
          figure: `GET /api/por on the wire, Accept-Encoding: ${values.encoding}`,
          value: wire,
          unit: "bytes",
          baseline: { name: "identity bytes", value: bytes },
          // Issue 32 item 4: at most 9 KB on the wire.
          ...atMost(wire, 9 * 1024, "bytes"),
        });
      const report = await load(`${url}${path}`);
      const constant = await load(`${url}/__bench/constant?bytes=${bytes}`);
      const f = (x: number) => x.toFixed(1);
      line([
        path,
        bytes,
        f(report.rps),
        f(report.p50),
        f(report.p99),
        f(constant.rps),
        f(constant.p99),
        (report.rps / constant.rps).toFixed(2) + (report.errors ? ` (${report.errors} non-200)` : ""),
      ]);
      console.log(rows.at(-1));
      const ratio = report.rps / constant.rps;
      figures.push(
        {
          figure: `GET ${path}, ${clients} clients: req/s`,
          value: report.rps,
          unit: "req/s",
          baseline: { name: "constant route, same size", value: constant.rps },
          ...atLeast(ratio, 0.8),
        },
        {
          figure: `GET ${path}, ${clients} clients: p99`,
          value: report.p99,
          unit: "ms",
          baseline: { name: "constant route p99", value: constant.p99 },
          ...atMost(report.p99, 25, "ms"),
        },
      );
    }
    console.log(
      `\n${clients} clients, ${seconds} s per target, keep-alive, ${databaseUrl ? "PostgreSQL" : "PGlite"}\n`,
    );
    console.log(rows.join("\n"));
    const peak = rssMb(indexer.process.pid!, "VmHWM");
    console.log(`\nRSS of the API+indexer process: ${rssBefore ?? "n/a"} MB before the load, peak ${peak ?? "n/a"} MB`);
    if (peak !== null)
      figures.push({
        figure: `peak RSS of the API+indexer process under the report load (before: ${rssBefore} MB)`,
        value: peak,
        unit: "MB",
        ...atMost(peak, 1024, "MB"),
      });
    recordFigures("reports", figures);
  } finally {
    await indexer.stop();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
