/**
 * `npm run bench:export [-- --rows N]`: the exports' memory as rows grow. A scratch database
 * (PGlite in a temporary directory, or a scratch schema on PostgreSQL with BENCH_DATABASE_URL or
 * DATABASE_URL) gets N synthetic PSM swaps (default 250,000) in Ponder's own psm_swap table and
 * indexes; a separate process serves the API's export routes over it (bench/export-server.ts).
 * Measured from outside, in /proc: that process's RSS at rest (after a warm-up export), and its
 * peak while it streams all N rows as CSV and as NDJSON (and a tenth of them, for the slope), with
 * rows/s. Not a test: it asserts nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import * as schema from "../ponder.schema.js";
import { heapFlags } from "../stack/indexer.js";
import { freePort } from "../test/helpers/ports.js";
import { checkpointSql, createTablesSql } from "../test/helpers/scratch-tables.js";
import { atMost, recordFigures } from "./results.js";

const { values } = parseArgs({ options: { rows: { type: "string", default: "250000" } } });
const ROWS = Number(values.rows);
const HEAD = BigInt(ROWS) + 10n;

/** N swaps, two per block, with the columns' real shapes (hex text, numeric(78) amounts past int8). */
const swapsSql = (n: number, table = "psm_swap") => `
  insert into ${table} select
    '0x' || lpad(to_hex(g), 64, '0') || '-' || (g % 2),
    case when g % 4 = 0 then 'psmRedeemReserve' else 'psmMint' end,
    '0x' || lpad(to_hex(170 + g % 4), 40, '0'),
    (case when g % 3 = 0 then 'redeem' else 'mint' end)::swap_direction,
    '0x' || lpad(to_hex(g % 5000), 40, '0'),
    (g % 50000)::bigint * 1000000 + 1,
    ((g % 50000)::numeric * 1000000 + 1) * 1000000000000,
    g % 997,
    g % 30,
    0,
    '0x' || lpad(to_hex(g::bigint * 7919), 64, '0'),
    g / 2 + 1,
    1780000000 + g,
    g % 2
  from generate_series(1, ${n}) g`;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) / 1024;
}

async function fill(databaseUrl: string | undefined, dir: string) {
  const statements = [
    ...createTablesSql([schema.psmSwap], databaseUrl ? SCHEMA : undefined),
    ...checkpointSql("base", 8453, HEAD, 1_780_000_000 + ROWS, databaseUrl ? SCHEMA : undefined),
  ];
  if (databaseUrl) {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create schema "${SCHEMA}"`);
    for (const s of statements) await sql.unsafe(s);
    await sql.unsafe(`set search_path to "${SCHEMA}"; ${swapsSql(ROWS)}; analyze psm_swap`);
    await sql.end();
    return;
  }
  const db = new PGlite(join(dir, "pglite"));
  for (const s of statements) await db.exec(s);
  await db.exec(`${swapsSql(ROWS)}; analyze psm_swap`);
  await db.close();
}

const SCHEMA = `kusd_bench_export_${process.pid}`;

/** Streams `path` to the end, sampling the server's RSS every 20 ms: rows (lines), seconds, peak MB. */
async function measure(url: string, pid: number) {
  let peak = rssMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  const started = performance.now();
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { lines, bytes, seconds, peak };
}

async function main() {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const db = databaseUrl ? "PostgreSQL" : "PGlite";
  const dir = mkdtempSync(join(tmpdir(), "kusd-bench-export-"));
  const port = await freePort();
  console.log(`${db}: ${ROWS.toLocaleString("en-US")} synthetic swaps ...`);
  const args = databaseUrl ? ["--url", databaseUrl, "--schema", SCHEMA] : ["--pglite", join(dir, "pglite")];
  let server: ChildProcess | undefined;
  try {
    await fill(databaseUrl, dir);
    server = spawn(
      process.execPath,
      [...heapFlags(process.env), "--import", "tsx", "bench/export-server.ts", "--port", String(port), ...args],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const started = server;
    await new Promise<void>((ready, fail) => {
      started.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && ready());
      started.once("exit", (code) => fail(new Error(`export server exited (${code})`)));
    });
    const pid = started.pid!;
    const base = `http://127.0.0.1:${port}/api/export/psmSwaps`;
    await measure(`${base}.csv?limit=5000`, pid); // warm-up: code loaded, first statements planned
    await new Promise((r) => setTimeout(r, 1_000));
    const rest: number[] = [];
    for (let i = 0; i < 20; i++) {
      rest.push(rssMb(pid));
      await new Promise((r) => setTimeout(r, 50));
    }
    const atRest = Math.max(...rest);
    const tenth = await measure(`${base}.csv?limit=${Math.floor(ROWS / 10)}`, pid);
    const csv = await measure(`${base}.csv`, pid);
    const ndjson = await measure(`${base}.ndjson?orderBy=kusdAmount&orderDirection=desc`, pid);
    const mb = (x: number) => `${x.toFixed(0)} MB`;
    console.log(`\nexport server RSS at rest ${mb(atRest)}`);
    for (const [name, m, rows] of [
      [`CSV, ${Math.floor(ROWS / 10).toLocaleString("en-US")} rows`, tenth, Math.floor(ROWS / 10)],
      [`CSV, ${ROWS.toLocaleString("en-US")} rows`, csv, ROWS],
      [`NDJSON by kusdAmount desc, ${ROWS.toLocaleString("en-US")} rows`, ndjson, ROWS],
    ] as const)
      console.log(
        `${name.padEnd(44)} peak RSS ${mb(m.peak)} (${(m.peak / atRest).toFixed(2)} × rest), ${(rows / m.seconds).toFixed(0)} rows/s, ${(m.bytes / 1e6).toFixed(1)} MB in ${m.seconds.toFixed(1)} s`,
      );
    if (csv.lines !== ROWS + 1 || ndjson.lines !== ROWS)
      throw new Error(`exported ${csv.lines - 1} / ${ndjson.lines} of ${ROWS} rows`);
    recordFigures("export", [
      {
        figure: `GET /api/export/psmSwaps.csv, ${ROWS.toLocaleString("en-US")} rows, ${db}: peak RSS of the serving process (at rest: ${mb(atRest)})`,
        value: csv.peak / atRest,
        unit: "× rest",
        baseline: {
          name: `peak at ${Math.floor(ROWS / 10).toLocaleString("en-US")} rows, × rest`,
          value: tenth.peak / atRest,
        },
        ...atMost(csv.peak / atRest, 1.5, "× rest"),
      },
      {
        figure: `GET /api/export/psmSwaps.ndjson by kusdAmount desc, ${ROWS.toLocaleString("en-US")} rows, ${db}: peak RSS`,
        value: ndjson.peak / atRest,
        unit: "× rest",
        ...atMost(ndjson.peak / atRest, 1.5, "× rest"),
      },
      { figure: `GET /api/export/psmSwaps.csv, ${db}: rows/s`, value: ROWS / csv.seconds, unit: "rows/s" },
      {
        figure: `GET /api/export/psmSwaps.ndjson by kusdAmount desc, ${db}: rows/s`,
        value: ROWS / ndjson.seconds,
        unit: "rows/s",
      },
    ]);
  } finally {
    if (server && server.exitCode === null) {
      const stopping = new Promise((r) => server?.once("exit", r));
      server.kill("SIGTERM");
      await stopping;
    }
    if (databaseUrl) {
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop schema if exists "${SCHEMA}" cascade`);
      await sql.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
