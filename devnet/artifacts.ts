/** Reads the compiled devnet contracts (devnet/artifacts, written by devnet/build.ts). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";
import type { StorageVariable } from "./build.js";

const dir = join(dirname(fileURLToPath(import.meta.url)), "artifacts");
type LoadedArtifact = { abi: Abi; bytecode: Hex; storage: StorageVariable[] };
const cache = new Map<string, LoadedArtifact>();

export function loadArtifact(name: string): LoadedArtifact {
  let artifact = cache.get(name);
  if (!artifact) {
    artifact = JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as LoadedArtifact;
    cache.set(name, artifact);
  }
  return artifact;
}
