/**
 * Starts and stops anvil (and finds cast) from the @foundry-rs npm packages. The platform
 * package ships the binary; we run it directly because killing the npm wrapper would leave the
 * real anvil behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rpcCall } from "./rpc.js";

const require = createRequire(import.meta.url);

function platformTag(): string {
  const os = process.platform === "darwin" ? "darwin" : process.platform === "win32" ? "win32" : "linux";
  const arch = process.arch === "arm64" ? "arm64" : "amd64";
  return `${os}-${arch}`;
}

export function foundryBinary(tool: "anvil" | "cast"): string {
  const pkg = require.resolve(`@foundry-rs/${tool}-${platformTag()}/package.json`);
  return join(dirname(pkg), "bin", process.platform === "win32" ? `${tool}.exe` : tool);
}

export type AnvilOptions = {
  port: number;
  chainId: number;
  /** Genesis block timestamp (unix seconds). */
  timestamp: number;
  /** Genesis block number (`--number`), so a short chain can sit at a real chain's heights. */
  number?: number;
  host?: string;
  gasLimit?: bigint;
};

export type AnvilHandle = {
  rpcUrl: string;
  chainId: number;
  process: ChildProcess;
  stop(): Promise<void>;
};

export class AnvilStartError extends Error {
  override name = "AnvilStartError";
  constructor(
    message: string,
    readonly details: { port: number; chainId: number; output: string },
  ) {
    super(message);
  }
}

/** Answers the chain id at `rpcUrl`, or null when nothing answers there. */
export async function rpcChainId(rpcUrl: string, timeoutMs = 1000): Promise<number | null> {
  try {
    return Number(await rpcCall<string>(rpcUrl, "eth_chainId", [], timeoutMs));
  } catch {
    return null;
  }
}

// Children still alive when this process exits (even on an uncaught error) are killed with it.
const liveChildren = new Set<ChildProcess>();
/** Per-instance directories of anvil's persisted states (see startAnvil). */
const stateDirs = new Set<string>();
/** Never throws: one directory that cannot be removed must not keep the others. */
function removeStateDirs() {
  for (const dir of stateDirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // left for the next pass, or for the operating system's tmp cleaning
    }
  }
}
process.once("exit", () => {
  for (const child of liveChildren) child.kill("SIGKILL");
  removeStateDirs();
  // A killed anvil may still write its state file for a moment after the kill: remove again once
  // it has had time to die (a synchronous wait: an exit handler cannot await).
  if (liveChildren.size > 0) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    removeStateDirs();
  }
});

export async function startAnvil(options: AnvilOptions): Promise<AnvilHandle> {
  const host = options.host ?? "127.0.0.1";
  const rpcUrl = `http://${host}:${options.port}`;
  const stateDir = mkdtempSync(join(tmpdir(), "kusd-anvil-state-"));
  stateDirs.add(stateDir);
  const args = [
    "--host",
    host,
    "--port",
    String(options.port),
    "--chain-id",
    String(options.chainId),
    "--timestamp",
    String(options.timestamp),
    "--gas-limit",
    String(options.gasLimit ?? 1_000_000_000n),
    "--accounts",
    "1",
    "--order",
    "fifo",
    "--no-request-size-limit",
    // Anvil spills old states to disk (by default under ~/.foundry/anvil/tmp, never cleaned:
    // a few large devnets filled 78 GB). Each instance gets its own directory, removed on exit.
    "--cache-path",
    stateDir,
  ];
  if (options.number !== undefined) args.push("--number", String(options.number));
  const child = spawn(foundryBinary("anvil"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => (output = (output + d).slice(-4000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-4000)));
  let exited = false;
  liveChildren.add(child);
  // Asynchronous: hundreds of MB of spilled states take long to delete, and a process whose event
  // loop is blocked that long does not answer a signal in time (tsx, relaying Ctrl-C, SIGKILLs it
  // halfway). Until deleted, the exit handler above removes it too; stop() waits for it, so a
  // caller that ends right after (a test worker) does not cut it short.
  const removed = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      liveChildren.delete(child);
      rm(stateDir, { recursive: true, force: true, maxRetries: 3 })
        .then(
          () => stateDirs.delete(stateDir),
          () => {},
        )
        .finally(resolve);
    }),
  );

  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited) break;
    if ((await rpcChainId(rpcUrl, 300)) === options.chainId) {
      return {
        rpcUrl,
        chainId: options.chainId,
        process: child,
        stop: async () => {
          await stopProcess(child);
          await removed;
        },
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new AnvilStartError(`anvil did not start on port ${options.port}`, {
    port: options.port,
    chainId: options.chainId,
    output,
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
