/**
 * `npm run bench`: every benchmark in turn (start, index, head, api, reports, paid, export, cost, flood), each printing its
 * own output, then one table of every figure with its same-run baseline, the ratio, the target
 * and whether this run met it. `-- --only start,reports` runs a subset. bench:index and bench:api
 * share one devnet at `--scale` (default 1100, ≥ 200,000 events), played once here. Not a test:
 * it asserts nothing, and the exit code is 0 whether targets hold or not (a failed bench exits 1).
 * bench:soak (an hour) runs only by itself.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Devnet, startDevnet } from "../devnet/devnet.js";
import { freePort } from "../test/helpers/ports.js";
import type { Figure } from "./results.js";

const BENCHES = ["start", "index", "head", "api", "reports", "paid", "export", "cost", "flood"] as const;
const { values } = parseArgs({ options: { only: { type: "string" }, scale: { type: "string", default: "1100" } } });
const chosen = values.only ? values.only.split(",") : [...BENCHES];

const dir = mkdtempSync(join(tmpdir(), "kusd-bench-all-"));
const results = join(dir, "figures.jsonl");
writeFileSync(results, "");
const failed: string[] = [];
let shared: Devnet | null = null;
const deploymentFile = join(dir, "deployment.json");
for (const bench of BENCHES.filter((b) => chosen.includes(b))) {
  const args: string[] = [];
  if (bench === "index" || bench === "api") {
    if (!shared) {
      console.log(`\n===== devnet at scale ${values.scale} for bench:index and bench:api =====`);
      shared = await startDevnet({
        ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
        deploymentFile,
        scale: Number(values.scale),
        reuse: false,
      });
    }
    args.push("--", "--devnet", deploymentFile);
  }
  console.log(`\n===== npm run bench:${bench} ${args.slice(1).join(" ")} =====`);
  // Async spawn: the shared devnet's venue simulator lives in this process and must keep answering.
  const status = await new Promise<number | null>((done) =>
    spawn("npm", ["run", "--silent", `bench:${bench}`, ...args], {
      stdio: "inherit",
      env: { ...process.env, BENCH_RESULTS: results },
    }).once("exit", done),
  );
  if (status !== 0) failed.push(bench);
}
await shared?.stop();

const figures = readFileSync(results, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Figure & { bench: string });
rmSync(dir, { recursive: true, force: true });
const num = (x: number) =>
  Math.abs(x) >= 100 ? x.toLocaleString("en-US", { maximumFractionDigits: 0 }) : x.toFixed(1);
const rows = figures.map((f) => [
  f.figure,
  `${num(f.value)} ${f.unit}`.trim(),
  f.baseline ? `${num(f.baseline.value)} (${f.baseline.name})` : "",
  f.baseline ? (f.value / f.baseline.value).toFixed(2) : "",
  f.target ?? "",
  f.holds === undefined ? "" : f.holds ? "yes" : "**no**",
]);
console.log(
  `\n## npm run bench: ${new Date().toISOString().slice(0, 16)}Z, ${process.platform} ${process.arch}, Node ${process.version}\n`,
);
console.log("| figure | value | same-run baseline | ratio | target | holds |");
console.log("|---|---:|---|---:|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (failed.length) {
  console.log(`\nfailed to run: ${failed.join(", ")}`);
  process.exit(1);
}
