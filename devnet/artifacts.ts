/** Reads the compiled devnet contracts (devnet/artifacts, written by devnet/build.ts). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

const dir = join(dirname(fileURLToPath(import.meta.url)), "artifacts");
const cache = new Map<string, { abi: Abi; bytecode: Hex }>();

export function loadArtifact(name: string): { abi: Abi; bytecode: Hex } {
  let artifact = cache.get(name);
  if (!artifact) {
    artifact = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as { abi: Abi; bytecode: Hex };
    cache.set(name, artifact);
  }
  return artifact;
}
