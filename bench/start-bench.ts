/**
 * `npm run bench:start`: seconds from `npm start` to `/ready` answering 200 on a fresh clone of
 * this checkout's HEAD (no devnet, no .ponder, no deployment file; node_modules hard-linked from here,
 * so `npm install` is not part of the figure). Free ports, so it can run beside anything.
 * Not a test: it asserts nothing.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../test/helpers/ports.js";
import { atMost, recordFigures } from "./results.js";

const root = resolve(import.meta.dirname, "..");

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "kusd-bench-start-"));
  const clone = join(dir, "clone");
  execFileSync("git", ["clone", "-q", "--no-hardlinks", root, clone]);
  // Hard links, not a symlink: through a linked node_modules Ponder's loader (vite-node) executes
  // some 370 of Ponder's own modules by their real path (11 in a plain checkout), a second Ponder in
  // the same heap, and the indexer ran out of its 512 MB before /ready (seen 2026-11-28).
  execFileSync("cp", ["-al", join(root, "node_modules"), join(clone, "node_modules")]);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DEVNET_BASE_PORT: String(await freePort()),
    DEVNET_ETHEREUM_PORT: String(await freePort()),
    DEVNET_VENUE_PORT: String(await freePort()),
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn("npm", ["start"], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const marks: Array<[string, number]> = [];
  const onData = (d: Buffer) => {
    for (const line of String(d).split("\n")) {
      if (!line.trim()) continue;
      output = `${output + line}\n`.slice(-8000);
      // When the devnet, the indexer and the API come up, for where the time goes.
      if (/^\[devnet\] (history|played|deployed usdc)|^\[indexer\]|^services:/.test(line))
        marks.push([line.slice(0, 70), (performance.now() - started) / 1000]);
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  let seconds: number | null = null;
  try {
    while (performance.now() - started < 300_000) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        seconds = (performance.now() - started) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    // An exit already seen emits no second 'exit': awaiting one left the bench with nothing
    // pending, and node ended it silently with status 0 before it printed its figure.
    const exited = new Promise((r) =>
      child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r),
    );
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // The group is gone already.
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
  if (seconds === null) throw new Error("not ready after 300 s");
  for (const [line, at] of marks) console.log(`${at.toFixed(1).padStart(6)} s  ${line}`);
  console.log(`\nnpm start to /ready on a fresh clone: ${seconds.toFixed(1)} s`);
  recordFigures("start", [
    {
      figure: "npm start to /ready, fresh clone (npm install excluded)",
      value: seconds,
      unit: "s",
      ...atMost(seconds, 30, "s"),
    },
  ]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
