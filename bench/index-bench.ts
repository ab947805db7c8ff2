/**
 * `npm run bench:index [-- --scale N]`: indexing throughput on a devnet of at least 200,000
 * subscribed events. In one run, on PGlite and on PostgreSQL (DATABASE_URL, or BENCH_DATABASE_URL,
 * or the local postgres on 127.0.0.1:5432 when it answers):
 *   - ours: the real indexer, from `ponder start` to the history's last block indexed;
 *   - bare: a Ponder app over the same sources with empty handlers (bench/bare), same measure;
 *   - raw:  fetching the same logs with eth_getLogs (5,000-block ranges);
 *   - floor (with --floor): bare Ponder writing one row per log and nothing else (bench/bare,
 *     KUSD_BENCH_FLOOR=1): the least an indexer keeping a row per event adds to bare Ponder.
 * Prints events/s of each and the ratios ours/bare and ours/raw (with --floor, floor/bare and
 * ours/floor). Not a test: it asserts nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readServiceEnv } from "@kusd/config";
import { selectNetwork } from "@kusd/config/node";
import type { Deployment } from "../devnet/deployment.js";
import { devnetServiceEnv } from "../devnet/network-document.js";
import { dropSchemas, startIndexer } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { formatReads, timeBalanceReads } from "./balance-reads.js";
import { benchDevnet } from "./bench-devnet.js";
import { formatBreakdown, ponderBreakdown } from "./ponder-metrics.js";
import { atLeast, atMost, type Figure, recordFigures } from "./results.js";
import { createScratchDatabase, postgresAnswers } from "./scratch-database.js";
import { fetchAllLogs, subscriptions } from "./subscriptions.js";

const { values } = parseArgs({
  options: {
    scale: { type: "string", default: "1100" },
    databases: { type: "string", default: "pglite,postgres" },
    /** Print where each indexer's time went, from Ponder's metrics. */
    profile: { type: "boolean", default: false },
    /** Write V8 CPU profiles of each indexer run to this directory. */
    "cpu-prof": { type: "string" },
    /** Reuse a running devnet (its deployment.json, e.g. from `npm run devnet`) instead of playing one. */
    devnet: { type: "string" },
    /** Smaller scales for the scaling table (PGlite), besides --scale; "" for none. */
    scaling: { type: "string", default: "100,300" },
    /** Runs of ours and of bare per database, alternated; each figure is the median. */
    runs: { type: "string", default: "1" },
    /** After each database's last run of ours, time the balance reads (bench/balance-reads.ts). */
    reads: { type: "boolean", default: false },
    /** Also time the floor app (see above) in each run, and print floor/bare and ours/floor. */
    floor: { type: "boolean", default: false },
  },
});
const scale = Number(values.scale);
const databases = values.databases.split(",") as Array<"pglite" | "postgres">;
const dir = mkdtempSync(join(tmpdir(), "kusd-bench-"));
// PGlite directories of every run: gone however the bench ends.
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
const deploymentFile = values.devnet ?? join(dir, "deployment.json");

const runs = Number(values.runs);

function postgresUrl(): string | null {
  const url =
    process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  return postgresAnswers(url) ? url : null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Linux's clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());

/** CPU seconds (user and system) a live process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which may hold spaces: state is the first, utime the 12th, stime the 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/**
 * Seconds to the last history block, the CPU seconds the process used by then (less sensitive than
 * wall time to what else the machine runs), and its peak RSS (VmHWM) in MB.
 */
async function timeIndexer(
  label: string,
  opts: { root?: string; databaseUrl?: string; reads?: boolean; env?: NodeJS.ProcessEnv },
  lastBlock: number,
): Promise<{ seconds: number; cpu: number | null; peakMb: number | null }> {
  // Every run fetches the whole history, as a first start does: what an earlier run stored of the
  // chain (reused by a restart, src/schema-holder/sync-cache.ts) goes first. PGlite's directory is new.
  if (opts.databaseUrl) await dropSchemas(opts.databaseUrl, ["ponder_sync"]);
  const started = performance.now();
  let pid: number | undefined;
  const indexer = await startIndexer({
    onSpawn: (child) => {
      pid = child.pid;
    },
    port: await freePort(),
    deploymentFile: process.env.DEVNET_DEPLOYMENT!,
    pgliteDir: join(dir, `pglite-${label}-${Date.now()}`),
    viewsSchema: `bench_views_${label}`,
    readyTimeoutMs: 3_600_000,
    ...(values["cpu-prof"] && {
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${values["cpu-prof"]}`, `--cpu-prof-name=${label}.cpuprofile`],
    }),
    root: opts.root,
    databaseUrl: opts.databaseUrl,
    ...(opts.env && { env: opts.env }),
  });
  try {
    await indexer.waitForBlock("base", lastBlock, 1_800_000);
    const seconds = (performance.now() - started) / 1000;
    // The indexing cache is sized from the heap: what the backfill cost in memory, beside its time.
    const peak = pid && /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    const peakMb = peak ? Number(peak) / 1024 : null;
    const cpu = pid ? cpuSeconds(pid) : null;
    if (values.profile) {
      const metrics = await fetch(`${indexer.url}/metrics`).then((r) => r.text());
      console.log(formatBreakdown(`${label}, ${seconds.toFixed(1)} s`, ponderBreakdown(metrics)));
      if (peakMb) console.log(`  peak RSS:            ${peakMb.toFixed(0)} MB`);
    }
    if (opts.reads) console.log(formatReads(label, await timeBalanceReads(indexer.url, lastBlock)));
    return { seconds, cpu, peakMb };
  } finally {
    await indexer.stop();
  }
}

const table = (header: string[], rows: string[][]) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  return `${line(header)}\n${rows.map(line).join("\n")}`;
};

/** Plays (or reuses, with --devnet) a devnet at `atScale` and runs `body` over it. */
async function withDevnet<T>(
  atScale: number,
  file: string,
  body: (d: Deployment, events: number, rawSeconds: number) => Promise<T>,
): Promise<T> {
  console.log(`devnet at scale ${atScale} ...`);
  const t0 = performance.now();
  const devnet = await benchDevnet({ scale: atScale, file, reuse: file === values.devnet ? values.devnet : undefined });
  try {
    const d = devnet.deployment;
    process.env.DEVNET_DEPLOYMENT = file;
    const lastBlock = d.chains.base.historyEndBlock;
    console.log(
      `history: ${lastBlock} blocks, ${d.users.count} users, played in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    const filters = subscriptions(selectNetwork(readServiceEnv({ ...process.env, ...devnetServiceEnv(d, file) })));
    const r0 = performance.now();
    const events = await fetchAllLogs(d.chains.base.rpcUrl, filters, lastBlock);
    const rawSeconds = (performance.now() - r0) / 1000;
    console.log(`events subscribed: ${events.toLocaleString("en-US")}`);
    return await body(d, events, rawSeconds);
  } finally {
    await devnet.stop();
  }
}

async function main() {
  const figures: Figure[] = [];
  const scaling: Array<{ scale: number; events: number; ours: number; bare: number }> = [];
  await withDevnet(scale, deploymentFile, async (d, events, rawSeconds) => {
    if (events < 200_000) console.log("  (below the 200,000 events the issue asks for: raise --scale)");
    const lastBlock = d.chains.base.historyEndBlock;
    const rows: string[][] = [];
    const pg = postgresUrl();
    for (const database of databases) {
      if (database === "postgres" && !pg) {
        console.log("postgres: not reachable, skipped (set BENCH_DATABASE_URL)");
        continue;
      }
      // A database of the bench's own on the server, dropped at the end with every schema in it.
      const scratch = database === "postgres" ? createScratchDatabase(pg!, "kusd_bench_index") : null;
      const databaseUrl = scratch?.url;
      type Run = { seconds: number; cpu: number | null };
      const oursRuns: Run[] = [];
      const bareRuns: Run[] = [];
      const floorRuns: Run[] = [];
      const peaks: number[] = [];
      const bareRoot = join(import.meta.dirname, "bare");
      try {
        for (let r = 0; r < runs; r++) {
          // Alternated, so neither side always runs on the warmer machine.
          const ours = await timeIndexer(
            `ours_${database}_${r}`,
            { databaseUrl, reads: values.reads && r === runs - 1 },
            lastBlock,
          );
          oursRuns.push(ours);
          if (ours.peakMb !== null) peaks.push(ours.peakMb);
          bareRuns.push(await timeIndexer(`bare_${database}_${r}`, { databaseUrl, root: bareRoot }, lastBlock));
          if (values.floor)
            floorRuns.push(
              await timeIndexer(
                `floor_${database}_${r}`,
                { databaseUrl, root: bareRoot, env: { KUSD_BENCH_FLOOR: "1" } },
                lastBlock,
              ),
            );
        }
      } finally {
        scratch?.drop();
      }
      const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(", ");
      const cpus = (xs: Run[]) => xs.flatMap((x) => (x.cpu === null ? [] : [x.cpu]));
      const apps: Array<[string, Run[]]> = [
        ["ours", oursRuns],
        ["bare", bareRuns],
        ["floor", floorRuns],
      ];
      console.log(
        `${database}: ${apps
          .filter(([, xs]) => xs.length)
          .map(([name, xs]) => `${name} ${list(xs.map((x) => x.seconds))} s (CPU ${list(cpus(xs))} s)`)
          .join("; ")}`,
      );
      const cpuRatio = (a: Run[], b: Run[]) =>
        cpus(a).length && cpus(b).length ? (median(cpus(b)) / median(cpus(a))).toFixed(2) : "?";
      const ours = median(oursRuns.map((x) => x.seconds));
      const bare = median(bareRuns.map((x) => x.seconds));
      if (database === "pglite") scaling.push({ scale: d.scale, events, ours, bare });
      const rate = (sec: number) => events / sec;
      rows.push([
        database,
        rate(ours).toFixed(0),
        rate(bare).toFixed(0),
        rate(rawSeconds).toFixed(0),
        (rate(ours) / rate(bare)).toFixed(2),
        (rate(ours) / rate(rawSeconds)).toFixed(2),
        `${ours.toFixed(1)} / ${bare.toFixed(1)} / ${rawSeconds.toFixed(1)}`,
        peaks.length ? Math.max(...peaks).toFixed(0) : "?",
        cpuRatio(oursRuns, bareRuns),
        ...(floorRuns.length
          ? [
              (bare / median(floorRuns.map((x) => x.seconds))).toFixed(2),
              cpuRatio(floorRuns, bareRuns),
              (median(floorRuns.map((x) => x.seconds)) / ours).toFixed(2),
            ]
          : []),
      ]);
      figures.push({
        figure: `backfill of ${events.toLocaleString("en-US")} events, ${database === "pglite" ? "PGlite" : "PostgreSQL"}: events/s`,
        value: rate(ours),
        unit: "ev/s",
        baseline: { name: "bare Ponder, same sources", value: rate(bare) },
        ...atLeast(bare / ours, 0.9), // issue 32: ≥ 0.9 × bare Ponder
      });
      if (peaks.length)
        figures.push({
          figure: `peak RSS of the indexer+API process over the backfill, ${database === "pglite" ? "PGlite" : "PostgreSQL"}`,
          value: Math.max(...peaks),
          unit: "MB",
          ...atMost(Math.max(...peaks), 1024, "MB"), // issue 41
        });
    }
    console.log(
      `\n${table(["database", "ours ev/s", "bare ev/s", "raw ev/s", "ours/bare", "ours/raw", "seconds ours/bare/raw", "ours peak RSS MB", "CPU ours/bare", ...(values.floor ? ["floor/bare", "CPU floor/bare", "ours/floor"] : [])], rows)}`,
    );
    if (values.floor)
      console.log(
        "floor/bare: bare Ponder writing one row per subscribed log and nothing else, against bare Ponder (the ceiling of ours/bare for an indexer with a row per event); ours/floor: ours against that ceiling. CPU: the ratio of the processes' CPU seconds (user and system) by the same point.",
      );
    console.log("\nours and bare: from `ponder start` to the last history block indexed (startup included for both).");
  });

  // The cost curve: the same measure on PGlite at smaller scales, each on its own devnet.
  for (const small of values.scaling ? values.scaling.split(",").map(Number) : []) {
    await withDevnet(small, join(dir, `deployment-${small}.json`), async (d, events) => {
      const lastBlock = d.chains.base.historyEndBlock;
      const ours = (await timeIndexer(`ours_scale${small}`, {}, lastBlock)).seconds;
      const bare = (await timeIndexer(`bare_scale${small}`, { root: join(import.meta.dirname, "bare") }, lastBlock))
        .seconds;
      scaling.push({ scale: small, events, ours, bare });
    });
  }
  if (scaling.length > 1) {
    scaling.sort((a, b) => a.events - b.events);
    console.log(
      `\nScaling (PGlite; seconds include each app's startup):\n${table(
        ["scale", "events", "ours s", "ours ev/s", "bare s", "bare ev/s", "ours/bare"],
        scaling.map((r) => [
          String(r.scale),
          r.events.toLocaleString("en-US"),
          r.ours.toFixed(1),
          (r.events / r.ours).toFixed(0),
          r.bare.toFixed(1),
          (r.events / r.bare).toFixed(0),
          (r.bare / r.ours).toFixed(2),
        ]),
      )}`,
    );
    // Linear in events means a constant marginal cost: compare the slope between the two largest runs.
    const [a, b] = scaling.slice(-2);
    if (a && b) {
      const marginal = (x: "ours" | "bare") => ((b[x] - a[x]) / (b.events - a.events)) * 1e6;
      console.log(
        `marginal cost between the two largest: ours ${marginal("ours").toFixed(0)} s per million events, bare ${marginal("bare").toFixed(0)}`,
      );
    }
  }
  recordFigures("index", figures);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
