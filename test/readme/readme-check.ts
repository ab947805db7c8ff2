/**
 * `npm run test:readme`: runs every command block the README and the docs show, in order, against
 * the stack the README's own first commands start. A block that exits non-zero fails the check.
 *
 * The files run in the fixed order of DOCS: README.md first (it starts the stacks), then each doc.
 * A markdown file under docs/, or a README.md anywhere outside node_modules, that is not in DOCS
 * fails the check before anything runs, so a new doc cannot escape it; so does a relative link
 * to a file or heading that does not exist. `--list` makes those checks and prints every block
 * with its file:line and directive, without running anything.
 *
 * A ```sh block runs in bash (`set -euo pipefail`) from the project root, whatever file it is in,
 * in a process group of its own that is killed when it ends (so a receiver it started with `&`
 * goes too). A ```graphql block is POSTed to /graphql, one query per paragraph; any error fails.
 * The HTML comment on the line before a block may say how to treat it:
 *   <!-- readme-check: serve <url> -->   a server: runs in the background until <url> answers
 *                                         200, and stays up until the end or until a later
 *                                         serve block on the same port (which stops it first);
 *   <!-- readme-check: skip <reason> --> not run here, and why (printed);
 *   <!-- readme-check: timeout <s> -->   a longer limit than the default 180 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { leftovers, snapshot } from "./leftovers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GRAPHQL_URL = process.env.README_CHECK_GRAPHQL ?? "http://127.0.0.1:42069/graphql";
/** The TMPDIR the commands get: made when the check runs, removed at its end. */
let commandTemp = tmpdir();

/**
 * Every doc whose blocks run, in the order they run. README.md comes first: its blocks start the
 * PGlite stack, then the PostgreSQL one that every later block reads. api.md starts the read
 * replica beside it. The order otherwise follows the README's before the docs were split, so each
 * block sees the chain it saw then (the monitor replays history before kusd-buy mines).
 */
export const DOCS = [
  "README.md",
  "docs/api.md",
  "docs/verify.md",
  "docs/base-output-roots.md",
  "docs/monitoring.md",
  "docs/graphql.md",
  "docs/analysts.md",
  "docs/paid-gateway.md",
  "docs/agents.md",
  "docs/page.md",
  "docs/base-mainnet.md",
  "docs/running-on-base.md",
  "docs/configuration.md",
  "docs/benchmarks.md",
  "docs/testing.md",
  "devnet/README.md",
  "packages/verify/README.md",
  "packages/monitor/README.md",
  "packages/mcp/README.md",
  "packages/buy/README.md",
  "patches/README.md",
] as const;

export type Block = {
  lang: string;
  body: string;
  line: number;
  directive: { kind: "run" | "serve" | "skip"; arg: string; timeoutS: number };
};

export function readmeBlocks(text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    let j = start - 1;
    while (j >= 0 && lines[j]!.trim() === "") j--;
    const d = /^<!-- readme-check: (serve|skip|timeout) ?(.*?) -->$/.exec(lines[j]?.trim() ?? "");
    const directive = !d
      ? { kind: "run" as const, arg: "", timeoutS: 180 }
      : d[1] === "timeout"
        ? { kind: "run" as const, arg: "", timeoutS: Number(d[2]) }
        : { kind: d[1] as "serve" | "skip", arg: d[2]!, timeoutS: 300 };
    blocks.push({ lang: open[1]!, body: body.join("\n"), line: start + 1, directive });
  }
  return blocks;
}

/** Markdown files the rule says must be in DOCS: every .md under docs/, every README.md. */
export function docsOnDisk(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(`${root}/${dir}`, { withFileTypes: true })) {
      // node_modules holds other projects' READMEs; .git holds no docs of ours.
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const path = dir === "." ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/^readme\.md$/i.test(entry.name) || (path.startsWith("docs/") && /\.md$/i.test(entry.name)))
        found.push(path);
    }
  };
  walk(".");
  return found.sort();
}

/** The problems with DOCS against what is on disk: a doc not listed, or a listed doc missing. */
export function docsListProblems(onDisk: readonly string[], docs: readonly string[]): string[] {
  return [
    ...onDisk
      .filter((f) => !docs.includes(f))
      .map((f) => `${f} is not in DOCS (test/readme/readme-check.ts): add it so its blocks run`),
    ...docs.filter((f) => !onDisk.includes(f)).map((f) => `${f} is in DOCS but does not exist`),
  ];
}

/** Lines outside code fences, with their 1-based numbers: links and headings live only there. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split("\n").forEach((l, i) => {
    if (/^```/.test(l)) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: l } of proseLines(text)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (!h) continue;
    const plain = h[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Relative links of one doc whose file or heading does not exist (URLs with a scheme are not checked). */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(`${root}/${file}`, "utf8");
  const problems: string[] = [];
  for (const { line, text: l } of proseLines(text)) {
    // Inline code is not a link: `GET /api/por[?block=N]` and the like.
    const prose = l.replace(/(`+)[\s\S]*?\1/g, "");
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const resolved = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
      if (!existsSync(`${root}/${resolved}`)) {
        problems.push(`${file}:${line}: ${target}: no file ${resolved}`);
        continue;
      }
      if (
        anchor !== undefined &&
        resolved.endsWith(".md") &&
        !headingAnchors(readFileSync(`${root}/${resolved}`, "utf8")).has(anchor)
      ) {
        problems.push(`${file}:${line}: ${target}: no heading #${anchor} in ${resolved}`);
      }
    }
  }
  return problems;
}

function shell(body: string): ChildProcess {
  return spawn("bash", ["-c", `set -euo pipefail\n${body}`], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // Temp folders the commands make land in the check's own folder (leftovers.ts counts them there).
    // The stacks the README starts never limit the check's own address: it runs every command of
    // the reference from 127.0.0.1 in about two minutes (exports of whole tables, past blocks,
    // every verifier), far past one reader's budget (docs/api.md#limits), whose block shows the
    // limits from an address of its own.
    env: {
      ...process.env,
      FORCE_COLOR: "0",
      TMPDIR: commandTemp,
      KUSD_RATE_LIMIT_EXEMPT: process.env.KUSD_RATE_LIMIT_EXEMPT ?? "127.0.0.1,::1",
    },
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function run(block: Block): Promise<{ ok: boolean; output: string }> {
  const child = shell(block.body);
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      output += `\n[readme-check] timed out after ${block.directive.timeoutS} s`;
      killGroup(child, "SIGKILL");
    }, block.directive.timeoutS * 1000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  killGroup(child); // what the block left running in the background
  return { ok: code === 0, output };
}

const servers: { child: ChildProcess; port: string; output: () => string }[] = [];
const portOf = (url: string) => new URL(url).port;

/** True while any process of the group is alive (signal 0 probes without signalling). */
function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the servers on `port` (all of them without one) as Ctrl-C does, and waits until every
 * process of the group has exited (not only bash: npm start cleans up after it), then SIGKILL.
 */
async function stopServers(port?: string) {
  const stopping = servers.filter((s) => port === undefined || s.port === port);
  for (const s of stopping) servers.splice(servers.indexOf(s), 1);
  for (const s of stopping) {
    killGroup(s.child, "SIGINT");
    const deadline = Date.now() + 60_000;
    while (groupAlive(s.child) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (groupAlive(s.child)) killGroup(s.child, "SIGKILL");
  }
}

async function serve(block: Block): Promise<{ ok: boolean; output: string }> {
  await stopServers(portOf(block.directive.arg));
  const child = shell(block.body);
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  servers.push({ child, port: portOf(block.directive.arg), output: () => output });
  const deadline = Date.now() + block.directive.timeoutS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      return {
        ok: false,
        output: `${output}\n[readme-check] exited with ${child.exitCode} before ${block.directive.arg} answered`,
      };
    const up = await fetch(block.directive.arg, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { ok: true, output };
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return {
    ok: false,
    output: `${output}\n[readme-check] ${block.directive.arg} did not answer within ${block.directive.timeoutS} s`,
  };
}

async function graphql(block: Block): Promise<{ ok: boolean; output: string }> {
  const queries = block.body
    .split(/\n\s*\n/)
    .map((q) =>
      q
        .split("\n")
        .filter((l) => !l.trim().startsWith("#"))
        .join("\n")
        .trim(),
    )
    .filter(Boolean);
  const failures: string[] = [];
  for (const query of queries) {
    const res = await fetch(GRAPHQL_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
    if (!res.ok || body.errors?.length || !body.data)
      failures.push(`${query.slice(0, 80)}…: HTTP ${res.status} ${JSON.stringify(body.errors ?? body).slice(0, 400)}`);
  }
  return {
    ok: failures.length === 0,
    output: failures.length ? failures.join("\n") : `${queries.length} queries answered without errors`,
  };
}

type DocBlock = Block & { file: string };

async function main() {
  const listOnly = process.argv.includes("--list");
  // The static checks come first: a doc missing from DOCS, or a dead link, fails before any stack starts.
  const problems = [
    ...docsListProblems(docsOnDisk(ROOT), DOCS),
    ...DOCS.filter((f) => existsSync(`${ROOT}/${f}`)).flatMap((f) => brokenLinks(ROOT, f)),
  ];
  for (const p of problems) console.log(`FAIL  ${p}`);
  if (problems.length) {
    console.log(`\n${problems.length} problem(s) with the docs list or links; no block was run`);
    process.exitCode = 1;
    return;
  }
  const blocks: DocBlock[] = DOCS.flatMap((file) =>
    readmeBlocks(readFileSync(`${ROOT}/${file}`, "utf8"))
      .filter((b) => b.lang === "sh" || b.lang === "graphql")
      .map((b) => ({ ...b, file })),
  );
  const headOf = (block: DocBlock) =>
    `${block.file}:${block.line} (${block.lang}) ${block.body.split("\n")[0]!.slice(0, 70)}`;
  if (listOnly) {
    for (const block of blocks) {
      const d = block.directive;
      const directive = d.kind === "run" ? `run (${d.timeoutS} s)` : `${d.kind} ${d.arg}`;
      console.log(
        `${`${block.file}:${block.line}`.padEnd(24)} ${block.lang.padEnd(7)} ${directive}\n${"".padEnd(24)} ${block.body.split("\n")[0]!.slice(0, 90)}`,
      );
    }
    const count = (kind: string) => blocks.filter((b) => b.directive.kind === kind).length;
    console.log(
      `\n${blocks.length} blocks in ${DOCS.length} files: ${count("run")} run, ${count("serve")} serve, ${count("skip")} skip; docs list and links checked`,
    );
    return;
  }
  let failed = 0;
  const started = Date.now();
  commandTemp = mkdtempSync(join(tmpdir(), "readme-check-"));
  const before = await snapshot(commandTemp);
  try {
    for (const block of blocks) {
      const head = headOf(block);
      if (block.directive.kind === "skip") {
        console.log(`skip  ${head}\n      why: ${block.directive.arg}`);
        continue;
      }
      const t = Date.now();
      const result =
        block.lang === "graphql"
          ? await graphql(block)
          : block.directive.kind === "serve"
            ? await serve(block)
            : await run(block);
      console.log(`${result.ok ? "ok  " : "FAIL"}  ${head}  (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      if (!result.ok) failed++;
      // README_CHECK_VERBOSE=1 prints what every block printed, not only a failing one's.
      if (!result.ok || process.env.README_CHECK_VERBOSE)
        console.log(
          result.output
            .split("\n")
            .map((l) => `      | ${l}`)
            .join("\n"),
        );
    }
  } finally {
    await stopServers();
  }
  // Nothing a command started may outlive the check: ports close and folders go within a few seconds of the stop.
  let left: string[] = [];
  for (let i = 0; i < 30; i++) {
    left = await leftovers(before, await snapshot(commandTemp));
    if (left.length === 0 || left.every((l) => l.startsWith("schema"))) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  for (const l of left) console.log(`FAIL  left behind: ${l}`);
  rmSync(commandTemp, { recursive: true, force: true });
  console.log(
    `\n${blocks.length} blocks, ${failed} failed, ${left.length} left behind, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exitCode = failed === 0 && left.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
