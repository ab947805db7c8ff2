/**
 * Vitest global setup: brings one devnet up on free ports with its own deployment file, and
 * hands its path to every test file through DEVNET_DEPLOYMENT.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startDevnet, type Devnet } from "../../devnet/devnet.js";
import { freePort } from "../helpers/ports.js";

let devnet: Devnet | undefined;
let dir: string | undefined;

export async function setup(project: TestProject) {
  dir = mkdtempSync(join(tmpdir(), "kusd-devnet-"));
  const deploymentFile = join(dir, "deployment.json");
  devnet = await startDevnet({
    ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile,
    reuse: false,
  });
  process.env.DEVNET_DEPLOYMENT = deploymentFile;
  project.provide("deploymentFile", deploymentFile);
}

export async function teardown() {
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    deploymentFile: string;
  }
}
