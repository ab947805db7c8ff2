/**
 * `npm start` comes up, and stops everything it started when it is sent SIGTERM (in the middle of
 * startup; CI's own `npm start`, beside the PGlite pass, is stopped by SIGTERM once running) or
 * Ctrl-C, with anvil's state directories. npm 11 exits on SIGTERM without passing it on to its script
 * (start.ts watches the processes above it), and Node's default action on a signal skips every
 * exit handler: either used to leave `ponder start` and anvil holding their ports.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../helpers/ports.js";

const root = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** The `--cache-path` of each running anvil serving one of `ports`, read from /proc. */
function anvilStateDirs(ports: Record<string, number>): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // gone meanwhile
    }
    if (!args[0]?.endsWith("anvil")) continue;
    const port = Number(args[args.indexOf("--port") + 1]);
    const cache = args[args.indexOf("--cache-path") + 1];
    if (Object.values(ports).includes(port) && cache) found.push(cache);
  }
  return found;
}

async function startStack(options: { ownGroup?: boolean; env?: (dir: string) => Record<string, string> } = {}) {
  const ports = { api: await freePort(), base: await freePort(), ethereum: await freePort(), venue: await freePort() };
  const dir = mkdtempSync(join(tmpdir(), "kusd-start-"));
  dirs.push(dir);
  // A fresh machine's environment: nothing of the test stack's (its deployment file, keys, proxies).
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PONDER_TELEMETRY_DISABLED: "true",
    PORT: String(ports.api),
    DEVNET_BASE_PORT: String(ports.base),
    DEVNET_ETHEREUM_PORT: String(ports.ethereum),
    DEVNET_VENUE_PORT: String(ports.venue),
    PONDER_PGLITE_DIR: join(dir, "pglite"),
    // Its files in its own folder: a running `npm start` keeps devnet/deployment.json and web/dist.
    DEVNET_DEPLOYMENT: join(dir, "deployment.json"),
    KUSD_PAGE_DIR: join(dir, "page"),
    ...options.env?.(dir),
  };
  // ownGroup: a process group of its own, as a terminal gives a command, so Ctrl-C can reach all of it.
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.ownGroup ?? false,
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = async (text: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (Date.now() > deadline) throw new Error(`"${text}" not printed in ${timeoutMs} ms:\n${out.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  return { child, ports, exited, waitFor, output: () => out };
}

async function expectAllStopped(
  child: ChildProcess,
  exited: Promise<number | null>,
  ports: Record<string, number>,
  stop = () => child.kill("SIGTERM"),
) {
  const stateDirs = anvilStateDirs(ports);
  stop();
  await exited;
  // The children get a moment to let go of their sockets after the parent has exited.
  // Each anvil's spilled states (hundreds of MB) go with it: deleting them takes a moment more.
  expect(stateDirs.length).toBeGreaterThan(0);
  const deadline = Date.now() + 15_000;
  let open: string[] = [];
  let kept: string[] = [];
  do {
    open = [];
    for (const [name, port] of Object.entries(ports)) if (await listening(port)) open.push(`${name}:${port}`);
    kept = stateDirs.filter((d) => existsSync(d));
    if (open.length === 0 && kept.length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  } while (Date.now() < deadline);
  expect(open).toEqual([]);
  expect(kept).toEqual([]);
}

// `npm start` runs on PGlite: once per CI run is enough (the PostgreSQL pass skips it).
describe.runIf(inject("database") === "pglite")("npm start stopped by SIGTERM or Ctrl-C", () => {
  it("in the middle of startup: the devnet's anvils and the indexer are gone with it", async () => {
    const s = await startStack();
    await s.waitFor("[indexer] ponder start", 240_000);
    await expectAllStopped(s.child, s.exited, s.ports);
  }, 300_000);

  it("once running, with the monitor beside it (KUSD_MONITOR_CONFIG): it alerts the devnet's violations; then Ctrl-C, which reaches the whole process group (anvil and npm too): every child stops, every port and state directory is freed", async () => {
    const s = await startStack({
      ownGroup: true,
      env: (dir) => {
        const file = join(dir, "monitor.yaml");
        writeFileSync(
          file,
          [
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the monitor file's ${NAME} reference, read by the monitor
            'api: "${KUSD_API_URL}"',
            "fromBlock: 0",
            "pollMs: 200",
            `state: ${JSON.stringify(join(dir, "monitor-state.json"))}`,
            "sinks:",
            "  - type: stdout",
          ].join("\n"),
        );
        return { KUSD_MONITOR_CONFIG: file };
      },
    });
    await s.waitFor("Ctrl-C stops everything", 300_000);
    expect(await listening(s.ports.api)).toBe(true);
    // The API's own list of violations, asked directly: each one reaches the monitor's stdout sink.
    const res = await fetch(`http://127.0.0.1:${s.ports.api}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ violations(first: 1000) { nodes { txHash } } }" }),
    });
    const listed = ((await res.json()) as any).data.violations.nodes.map((n: { txHash: string }) => n.txHash);
    expect(listed.length).toBeGreaterThan(0);
    const alerted = () =>
      s
        .output()
        .split("\n")
        .filter((l) => l.startsWith("[monitor] {"))
        .map((l) => JSON.parse(l.slice("[monitor] ".length)))
        .filter((m) => m.kind === "violation")
        .map((m) => m.txHash);
    const deadline = Date.now() + 60_000;
    while (new Set(alerted()).size < new Set(listed).size && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(new Set(alerted())).toEqual(new Set(listed));
    await expectAllStopped(s.child, s.exited, s.ports, () => process.kill(-s.child.pid!, "SIGINT"));
    expect(s.output()).toMatch(/SIGINT: stopping/);
  }, 360_000);
});
