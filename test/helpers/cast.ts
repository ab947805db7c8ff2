import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { foundryBinary } from "../../devnet/anvil.js";

const run = promisify(execFile);

/** Runs `cast <args>` from @foundry-rs/cast and returns its first output token. */
export async function cast(args: string[]): Promise<string> {
  const { stdout } = await run(foundryBinary("cast"), args);
  return stdout.trim().split(/\s+/)[0]!;
}
