/**
 * The whole application in process, configured from the committed Base network document, with
 * stand-in parts: its routes, middleware and documents are the real ones, and nothing it is built
 * from reads a database, the operator store or a chain unless the caller passes parts that do.
 * `npm run gen:api-contracts` builds the published documents from it and route tests call it with
 * `app.request(...)`.
 *
 * Its chain URLs name port 0, which no process can listen on: a read that reaches for a chain is
 * refused at once, whatever runs on this machine (the devnet of `npm start` on 8545 included), so
 * the same request answers the same on every machine.
 */

import { readServiceEnv, type ServiceEnv } from "@kusd/config";
import { networkDocument, selectNetwork } from "@kusd/config/node";
import type { Hono } from "hono";
import { createApp } from "./app.js";
import type { BackgroundTasks } from "./background.js";
import { configuredParts } from "./configured-parts.js";
import { createReportContext } from "./context.js";
import type { ReadDb } from "./io/indexed-reads.js";
import { RegistryService } from "./registry/registry-service.js";
import { StatementService } from "./statements/statement-service.js";
import type { OperatorStore } from "./store/operator-store.js";

/** The site URL the stand-alone app serves (`npm start`'s, as the committed documents name it). */
export const STANDALONE_SITE_URL = "http://localhost:42069";

/** An RPC URL nothing answers: connections to port 0 are refused by the operating system. */
export const UNREACHABLE_RPC = "http://127.0.0.1:0";

export type StandaloneParts = {
  /** The indexed database; default: an empty stand-in (a read of it fails). */
  db?: ReadDb;
  /** The operator store; default: one that never opens. */
  store?: Promise<OperatorStore>;
  /** Service environment beside the Base network's (a payment recipient switches the paid gateway on). */
  env?: Record<string, string>;
  /** Takes the stop handles of what the app starts (the paid gateway's recovery sweep). */
  background?: BackgroundTasks;
};

/** The service environment of the Base network document, every chain URL unreachable. */
export function standaloneEnv(extra: Record<string, string> = {}): ServiceEnv {
  return readServiceEnv({
    KUSD_NETWORK: "base",
    PONDER_RPC_URL_8453: UNREACHABLE_RPC,
    KUSD_READ_RPC_URL_1: UNREACHABLE_RPC,
    KUSD_SITE_URL: STANDALONE_SITE_URL,
    ...extra,
  });
}

export function standaloneApp(parts: StandaloneParts = {}): Hono {
  const env = standaloneEnv(parts.env);
  const network = selectNetwork(env);
  const ctx = createReportContext(network, parts.db ?? ({} as ReadDb), STANDALONE_SITE_URL);
  const store = parts.store ?? new Promise<OperatorStore>(() => {});
  const keys = { operator: null, attestation: null, attestationFrom: network.reporting.signers.attestationFrom };
  const statements = new StatementService(ctx, store, keys);
  const siteUrl = STANDALONE_SITE_URL;
  return createApp({
    ctx,
    statements,
    registry: new RegistryService(ctx, () => ({})),
    keys,
    store,
    siteUrl,
    ...configuredParts({
      env,
      network,
      siteUrl,
      statements,
      store,
      keys,
      ...(parts.background && { background: parts.background }),
    }),
    networkDocument: networkDocument(env),
    // Every answer a route test gets is checked against its route's published schema (a breach is a 500).
    checkResponses: true,
  });
}
