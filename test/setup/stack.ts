/**
 * Vitest global setup: one devnet (free ports, its own deployment file) and one indexer over
 * it, on PGlite in a temporary directory, or on PostgreSQL when DATABASE_URL is set. Tests get
 * the deployment file and the indexer URL through `inject`.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type Devnet, startDevnet } from "../../devnet/devnet.js";
import { devnetServiceEnv } from "../../devnet/network-document.js";
import { type RpcProxy, startRpcProxy } from "../../devnet/rpc-proxy.js";
import { dropSchemas, type Indexer, startIndexer } from "../../stack/indexer.js";
import { buildPage } from "../../stack/page-build.js";
import { freePort } from "../helpers/ports.js";

let devnet: Devnet | undefined;
let indexer: Indexer | undefined;
let dir: string | undefined;
let proxies: RpcProxy[] = [];

const VIEWS_SCHEMA = `kusd_test_${process.pid}`;
const STORE_SCHEMA = `kusd_test_${process.pid}_operator`;

/** Bearer token the test API accepts for issuing signed statements on demand. */
const ADMIN_TOKEN = `test-${process.pid}`;

export async function setup(project: TestProject) {
  // KUSD_SKIP_STACK=1 runs unit tests only (no devnet, no indexer); stack tests then fail fast.
  if (process.env.KUSD_SKIP_STACK) return;
  dir = mkdtempSync(join(tmpdir(), "kusd-test-"));
  // The API serves the reserves page: built from the sources under test into a folder of this
  // run's (web/dist may be what a running `npm start` serves).
  const pageDir = await buildPage(join(dir, "page"));
  const deploymentFile = join(dir, "deployment.json");
  devnet = await startDevnet({
    ports: { base: await freePort(), ethereum: await freePort(), venue: await freePort() },
    deploymentFile,
    reuse: false,
  });
  process.env.DEVNET_DEPLOYMENT = deploymentFile;
  // In-process services of the tests read the devnet as the indexer does: from its network
  // document and the service environment (keys, membership signatures).
  Object.assign(process.env, devnetServiceEnv(devnet.deployment, deploymentFile));
  // The suite reads far more than a reader would (nothing shared, KUSD_HEAD_FRESH_MS=0): the readers'
  // budgets are out of the way of every API it starts, the indexer's, in process or a replica's
  // (reader-rpc-budget.test.ts starts one with a small budget).
  Object.assign(process.env, {
    KUSD_READER_RPC_CALLS_PER_SECOND: "100000",
    KUSD_READER_RPC_BURST: "1000000",
    KUSD_READER_VENUE_WEIGHT_PER_MINUTE: "1000000",
    KUSD_READER_VENUE_BURST: "1000000",
  });
  // Tests call every API process they start from 127.0.0.1 all day: loopback's first address is
  // never limited there. The limits themselves are tested from other loopback addresses
  // (test/e2e/rate-limit.test.ts), against the defaults.
  process.env.KUSD_RATE_LIMIT_EXEMPT = "127.0.0.1,::1";
  // The API's own chain and venue reads go through fault-injection proxies, so a test can make
  // a read fail while the indexer keeps reading anvil directly.
  const d0 = devnet.deployment;
  const rpcProxy = await startRpcProxy({ upstream: d0.chains.base.rpcUrl });
  const venueProxy = await startRpcProxy({ upstream: `${d0.venue.url}/info` });
  proxies = [rpcProxy, venueProxy];
  const privateSqlPort = await freePort();
  indexer = await startIndexer({
    port: await freePort(),
    deploymentFile,
    databaseUrl: process.env.DATABASE_URL,
    pgliteDir: join(dir, "pglite"),
    viewsSchema: VIEWS_SCHEMA,
    env: {
      KUSD_READ_RPC_URL_8453: rpcProxy.url,
      // Anchors go to anvil directly: a read fault a test injects is not a failed anchor retried later.
      KUSD_ANCHOR_RPC_URL: d0.chains.base.rpcUrl,
      KUSD_VENUE_URL: venueProxy.url,
      KUSD_ADMIN_TOKEN: ADMIN_TOKEN,
      // Every answer of the test stack is checked against its published schema.
      KUSD_CHECK_RESPONSES: "1",
      // Venue faults must show at once: the venue is read on every request (0), not every 5 s.
      KUSD_VENUE_MAX_AGE_SECONDS: "0",
      // Tests mine a block and read the report at the new head at once.
      KUSD_HEAD_FRESH_MS: "0",
      // The tests read the indexed tables through Ponder's SQL client on a loopback port of
      // their own; the public API serves no raw SQL.
      KUSD_PRIVATE_SQL_PORT: String(privateSqlPort),
      KUSD_STORE_DIR: join(dir, "operator-store"),
      KUSD_PAGE_DIR: pageDir,
      KUSD_STORE_SCHEMA: STORE_SCHEMA,
    },
    // Set KUSD_TEST_INDEXER_LOG=path to keep the indexer's own log of a test run.
    onOutput: (line) =>
      process.env.KUSD_TEST_INDEXER_LOG && appendFileSync(process.env.KUSD_TEST_INDEXER_LOG, `${line}\n`),
  });
  const d = devnet.deployment;
  await indexer.waitForBlock("base", d.chains.base.historyEndBlock);
  project.provide("deploymentFile", deploymentFile);
  project.provide("indexerUrl", indexer.url);
  project.provide("privateSqlUrl", `http://127.0.0.1:${privateSqlPort}/sql`);
  project.provide("database", process.env.DATABASE_URL ? "postgres" : "pglite");
  project.provide("rpcProxyUrl", rpcProxy.url);
  project.provide("venueProxyUrl", venueProxy.url);
  project.provide("adminToken", ADMIN_TOKEN);
  project.provide("viewsSchema", VIEWS_SCHEMA);
  project.provide("storeSchema", STORE_SCHEMA);
}

export async function teardown() {
  await indexer?.stop();
  // On PostgreSQL the run's schemas (the indexer's, its views, the operator store) go with it.
  if (process.env.DATABASE_URL && indexer)
    await dropSchemas(process.env.DATABASE_URL, [indexer.schema, VIEWS_SCHEMA, STORE_SCHEMA]);
  await Promise.all(proxies.map((p) => p.stop()));
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    deploymentFile: string;
    indexerUrl: string;
    privateSqlUrl: string;
    database: "pglite" | "postgres";
    rpcProxyUrl: string;
    venueProxyUrl: string;
    adminToken: string;
    viewsSchema: string;
    storeSchema: string;
  }
}
