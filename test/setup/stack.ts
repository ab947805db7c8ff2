/**
 * Vitest global setup: one devnet (free ports, its own deployment file) and one indexer over
 * it, on PGlite in a temporary directory, or on PostgreSQL when DATABASE_URL is set. Tests get
 * the deployment file and the indexer URL through `inject`.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startDevnet, type Devnet } from "../../devnet/devnet.js";
import { startIndexer, type Indexer } from "../../devnet/indexer.js";
import { freePort } from "../helpers/ports.js";

let devnet: Devnet | undefined;
let indexer: Indexer | undefined;
let dir: string | undefined;

export async function setup(project: TestProject) {
  // KUSD_SKIP_STACK=1 runs unit tests only (no devnet, no indexer); stack tests then fail fast.
  if (process.env.KUSD_SKIP_STACK) return;
  dir = mkdtempSync(join(tmpdir(), "kusd-test-"));
  const deploymentFile = join(dir, "deployment.json");
  devnet = await startDevnet({
    ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile,
    reuse: false,
  });
  process.env.DEVNET_DEPLOYMENT = deploymentFile;
  indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    databaseUrl: process.env.DATABASE_URL,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: `kusd_test_${process.pid}`,
    // Set KUSD_TEST_INDEXER_LOG=path to keep the indexer's own log of a test run.
    onOutput: (line) => process.env.KUSD_TEST_INDEXER_LOG && appendFileSync(process.env.KUSD_TEST_INDEXER_LOG, `${line}\n`),
  });
  const d = devnet.deployment;
  await indexer.waitForBlock("base", d.chains.base.historyEndBlock);
  project.provide("deploymentFile", deploymentFile);
  project.provide("indexerUrl", indexer.url);
  project.provide("database", process.env.DATABASE_URL ? "postgres" : "pglite");
}

export async function teardown() {
  await indexer?.stop();
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    deploymentFile: string;
    indexerUrl: string;
    database: "pglite" | "postgres";
  }
}
