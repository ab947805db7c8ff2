/**
 * `npm run gen:api-contracts`: writes the API's contracts to docs/api/, so a changed field shows
 * in a diff: the free OpenAPI document (what GET /api/openapi.json serves), the paid gateway's
 * descriptor (GET /paid/openapi.json) and the GraphQL schema (SDL, sorted).
 *
 * No running stack: the application is built in process and asked for its two documents. Its
 * configuration is the committed Base network document, served at http://localhost:42069, with
 * the paid gateway switched on by a placeholder recipient (the zero address: the Base document
 * configures none) and an in-process facilitator whose key pays for nothing. Nothing is read from
 * a chain, a database or this machine, so every machine writes the same bytes.
 * test/e2e/api-contracts.test.ts compares these files with what the test stack serves, apart from
 * the deployment's own values (server URL, recipient, asset, builder code, x402 network).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { lexicographicSortSchema, printSchema } from "graphql";
import type { Hono } from "hono";
import { keccak256, stringToHex, zeroAddress } from "viem";
import { createApp } from "../api/app.js";
import { createReportContext } from "../api/context.js";
import { schema } from "../api/graphql/schema.js";
import type { ReadDb } from "../api/io/indexed-reads.js";
import { RegistryService } from "../api/registry/registry-service.js";
import { StatementService } from "../api/statements/statement-service.js";
import type { OperatorStore } from "../api/store/operator-store.js";
import { readServiceEnv } from "../core/network/env.js";
import { selectNetwork } from "../src/networks/index.js";

/** The site URL the committed documents name (`npm start`'s). */
const CONTRACT_SITE_URL = "http://localhost:42069";

/**
 * The application whose routes the documents describe. The only use of createApp here: its
 * parts are stand-ins that nothing calls while the documents are generated (no request reaches
 * a report, the store or the chain).
 */
function contractApp(): Hono {
  const env = readServiceEnv({
    KUSD_NETWORK: "base",
    // Required for Base; never connected to.
    PONDER_RPC_URL_8453: "http://127.0.0.1:8545",
    KUSD_READ_RPC_URL_1: "http://127.0.0.1:8546",
    KUSD_SITE_URL: CONTRACT_SITE_URL,
    KUSD_PAYMENT_RECIPIENT: zeroAddress,
    KUSD_FACILITATOR_PRIVATE_KEY: keccak256(stringToHex("kusd:api-contracts:unused-facilitator")),
  });
  const network = selectNetwork(env);
  const ctx = createReportContext(network, {} as ReadDb, CONTRACT_SITE_URL);
  const store = new Promise<OperatorStore>(() => {});
  const keys = { operator: null, attestation: null, attestationFrom: network.reporting.signers.attestationFrom };
  return createApp({
    ctx,
    statements: new StatementService(ctx, store, keys),
    registry: new RegistryService(ctx, () => ({})),
    keys,
    store,
    siteUrl: CONTRACT_SITE_URL,
    env,
  });
}

/** Pretty JSON, two spaces, every object's keys sorted (arrays keep their order), newline-terminated. */
function canonicalJson(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sorted(value), null, 2)}\n`;
}

async function apiContracts(): Promise<Record<string, string>> {
  const app = contractApp();
  const get = async (path: string) => {
    const r = await app.request(`${CONTRACT_SITE_URL}${path}`);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
    return r.json();
  };
  return {
    "openapi.json": canonicalJson(await get("/api/openapi.json")),
    "paid-openapi.json": canonicalJson(await get("/paid/openapi.json")),
    "schema.graphql": `${printSchema(lexicographicSortSchema(schema))}\n`,
  };
}

const dir = new URL("../docs/api/", import.meta.url);
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(await apiContracts())) {
  const file = new URL(name, dir);
  const before = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return null;
    }
  })();
  if (before !== text) writeFileSync(file, text);
  console.log(`docs/api/${name} ${before === text ? "is up to date" : "written"}`);
}
