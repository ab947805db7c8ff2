import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { foundryBinary } from "../../devnet/anvil.js";

const run = promisify(execFile);

/** Runs `cast <args>` from @foundry-rs/cast and returns its first output token. */
export async function cast(args: string[]): Promise<string> {
  const { stdout } = await run(foundryBinary("cast"), args);
  return stdout.trim().split(/\s+/)[0]!;
}

/** Runs a command exactly as a report prints it, through `bash -c` (cast on the PATH), as a reader would paste it. */
export async function runPrinted(command: string): Promise<{ stdout: string; stderr: string }> {
  const path = `${dirname(foundryBinary("cast"))}:${process.env.PATH ?? ""}`;
  return run("bash", ["-c", command], { env: { ...process.env, PATH: path } });
}
