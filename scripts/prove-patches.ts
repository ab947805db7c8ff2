/**
 * `npm run test:patches`: proves every change of patches/ by its tests (patches/changes.ts). For
 * each change it copies the tree (scripts/patch-tree.ts: the real node_modules is never touched),
 * reverts that change's hunks in the copy and runs the change's tests there, which must fail; the
 * same tests must pass in a copy with every hunk applied. Prints one row per change and test, and
 * exits 1 unless every change is proven. Each copy is removed once its tests are done (or the
 * runner is interrupted).
 *
 *   npm run test:patches                          every change (the e2e tests take minutes each)
 *   npm run test:patches -- --unit-only           leave out the e2e tests
 *   npm run test:patches -- --only queue-fifo,server-hooks
 *   npm run test:patches -- --revert <id> --exec <command...>
 *                                                 runs a command in a copy with that change
 *                                                 reverted (`--revert none`: nothing reverted),
 *                                                 e.g. a benchmark of its effect
 *
 * e2e tests run on PGlite (DATABASE_URL is left out), where the crash test checks its batches.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, stripVTControlCharacters } from "node:util";
import { type Change, type ChangeTest, changes } from "../patches/changes.js";
import { type Hunk, readHunks } from "./patch-hunks.js";
import { makePatchTree, type PatchTree } from "./patch-tree.js";

const root = resolve(import.meta.dirname, "..");

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    only: { type: "string" },
    "unit-only": { type: "boolean", default: false },
    revert: { type: "string" },
    exec: { type: "boolean", default: false },
  },
});

const hunks = new Map(readHunks(join(root, "patches")).map((h) => [h.key, h]));

function hunksOf(change: Change): Hunk[] {
  return change.hunks.map((key) => {
    const hunk = hunks.get(key);
    if (!hunk) throw new Error(`${change.id}: no hunk ${key} in patches/*.patch`);
    return hunk;
  });
}

/** The patch lines a change occupies: its hunks' headers and bodies. */
const patchLines = (hs: Hunk[]) => hs.reduce((n, h) => n + 1 + h.body.length, 0);

let tree: PatchTree | null = null;
let child: ChildProcess | null = null;
let stopping: NodeJS.Signals | null = null;
/** Removes the copy and exits, once what the runner started has stopped (or is killed). */
function finish(): never {
  try {
    if (child?.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
  tree?.remove();
  process.exit(stopping === "SIGINT" ? 130 : 143);
}
function stopAll(signal: NodeJS.Signals) {
  stopping = signal;
  if (child?.pid === undefined) finish();
  try {
    // The same signal, to the child's whole group: vitest and the stack it starts stop on either.
    process.kill(-child.pid, signal);
  } catch {
    finish();
  }
  // A group that does not stop within 10 s is killed.
  setTimeout(finish, 10_000);
}
process.once("SIGINT", () => stopAll("SIGINT"));
process.once("SIGTERM", () => stopAll("SIGTERM"));
process.once("exit", () => tree?.remove());

/**
 * Runs a command in its own process group (an interrupt stops everything it started); its exit
 * code and, when `quiet`, its output.
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  quiet: boolean,
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    child = spawn(command, args, { cwd, env, detached: true, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    const keep = (d: Buffer) => {
      output = (output + d).slice(-20_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.once("exit", (code, signal) => {
      child = null;
      if (stopping) finish();
      done({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

type Outcome = "passed" | "failed" | "not run";
/** Why each test that failed in the latest copy did, by key. */
const failures = new Map<string, string>();

/** Runs `tests` (one vitest project) in `dir`; each test's outcome, by file and name. */
async function runTests(
  dir: string,
  project: "unit" | "e2e",
  tests: ChangeTest[],
): Promise<{ outcomes: Map<string, Outcome>; output: string }> {
  const report = join(tmpdir(), `kusd-prove-${process.pid}-${Date.now()}.json`);
  const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = `(${[...new Set(tests.map((t) => escapeRegex(t.name)))].join("|")})$`;
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const files = [...new Set(tests.map((t) => t.file))];
  const { output } = await run(
    process.execPath,
    [
      join(dir, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--project",
      project,
      ...files,
      "-t",
      pattern,
      // The default reporter's summary for the output shown when a test does not do as expected.
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
    ],
    dir,
    env,
    true,
  );
  const outcomes = new Map<string, Outcome>();
  try {
    const json = JSON.parse(readFileSync(report, "utf8")) as {
      testResults: Array<{
        name: string;
        assertionResults: Array<{ title: string; status: string; failureMessages?: string[] }>;
      }>;
    };
    for (const file of json.testResults) {
      const rel = file.name.startsWith(dir) ? file.name.slice(dir.length + 1) : file.name;
      for (const a of file.assertionResults) {
        if (a.status !== "passed" && a.status !== "failed") continue;
        outcomes.set(`${rel}\0${a.title}`, a.status);
        // The failure's first line, without the terminal's colours: why the test failed.
        const why = stripVTControlCharacters(a.failureMessages?.[0] ?? "").split("\n")[0];
        if (why) failures.set(`${rel}\0${a.title}`, why.slice(0, 160));
      }
    }
  } catch {
    // no report: the run failed before any test (every test counts as not run)
  } finally {
    rmSync(report, { force: true });
  }
  return { outcomes, output };
}

const key = (t: ChangeTest) => `${t.file}\0${t.name}`;

/**
 * Runs `tests` in a fresh copy of the tree reverting `revert` (nothing if empty). Prints the
 * runner's output when a test's outcome is not `expected`.
 */
async function inTree(revert: Hunk[], tests: ChangeTest[], expected: Outcome): Promise<Map<string, Outcome>> {
  failures.clear();
  tree = makePatchTree(root, revert, "kusd-prove-");
  try {
    const outcomes = new Map<string, Outcome>();
    for (const project of ["unit", "e2e"] as const) {
      const mine = tests.filter((t) => t.project === project);
      if (mine.length === 0) continue;
      const run = await runTests(tree.dir, project, mine);
      for (const [k, v] of run.outcomes) outcomes.set(k, v);
      if (mine.some((t) => run.outcomes.get(key(t)) !== expected))
        console.error(
          `[prove-patches] ${project} tests not ${expected}; vitest's output ends:\n${run.output.slice(-3_000)}`,
        );
    }
    return outcomes;
  } finally {
    tree.remove();
    tree = null;
  }
}

async function execMode(): Promise<number> {
  const id = values.revert ?? "none";
  const change = changes.find((c) => c.id === id);
  if (id !== "none" && !change) throw new Error(`no change ${id} in patches/changes.ts`);
  const [command, ...args] = positionals;
  if (!command) throw new Error("--exec needs a command");
  tree = makePatchTree(root, change ? hunksOf(change) : [], "kusd-prove-");
  console.error(`[prove-patches] ${id === "none" ? "nothing" : id} reverted in ${tree.dir}`);
  try {
    return (await run(command, args, tree.dir, process.env, false)).code;
  } finally {
    tree.remove();
    tree = null;
  }
}

async function proveAll(): Promise<number> {
  const only = values.only?.split(",");
  const selected = changes.filter((c) => !only || only.includes(c.id));
  if (only && selected.length !== only.length) throw new Error(`unknown change in --only ${values.only}`);
  const testsOf = (c: Change) => c.tests.filter((t) => t.project === "unit" || !values["unit-only"]);
  for (const c of selected) hunksOf(c);
  const started = Date.now();
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  console.log(`[prove-patches] ${selected.length} changes; every hunk applied first, then each change reverted`);
  const withPatch = await inTree([], selected.flatMap(testsOf), "passed");
  const rows: string[][] = [];
  const revertedWhy = new Map<string, string>();
  let proven = 0;
  for (const change of selected) {
    const t0 = Date.now();
    const reverted = await inTree(hunksOf(change), testsOf(change), "failed");
    for (const t of testsOf(change)) {
      const why = failures.get(key(t));
      if (why) revertedWhy.set(key(t), why);
    }
    const ok = testsOf(change).every((t) => withPatch.get(key(t)) === "passed" && reverted.get(key(t)) === "failed");
    if (ok) proven++;
    const hs = hunksOf(change);
    testsOf(change).forEach((t, i) => {
      rows.push([
        i === 0 ? change.id : "",
        i === 0 ? hs.map((h) => h.key.replace(/^ponder\/dist\/esm\//, "")).join(" ") : "",
        i === 0
          ? `${patchLines(hs)} (+${hs.reduce((n, h) => n + h.added, 0)} −${hs.reduce((n, h) => n + h.removed, 0)})`
          : "",
        `${t.project}: ${t.file.replace(/^(src\/engine-patches|test\/e2e)\//, "")} › ${t.name}`,
        withPatch.get(key(t)) ?? "not run",
        reverted.get(key(t)) ?? "not run",
        i === 0 ? (ok ? "proven" : "NOT PROVEN") : "",
      ]);
    });
    console.error(
      `[prove-patches] ${change.id}: ${ok ? "proven" : "NOT PROVEN"} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
  const header = ["change", "hunks", "patch lines", "test", "with patch", "reverted", "result"];
  console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log("\nWhy each test failed with its change reverted (the failure's first line):");
  for (const change of selected)
    for (const t of testsOf(change))
      console.log(`- ${change.id}, ${t.file}: ${revertedWhy.get(key(t)) ?? "(did not fail)"}`);
  console.log(
    `\n${proven} of ${selected.length} changes proven; commit ${commit}${values["unit-only"] ? ", e2e tests left out" : ""}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return proven === selected.length ? 0 : 1;
}

process.exitCode = await (values.exec ? execMode() : proveAll());
