/**
 * The whole application in process for route tests (`app.request(...)`), configured from the
 * committed Base network document: its routes, middleware and documents are the real ones; no
 * request may need the database, the store or a chain (the RPC URLs point at a closed port, the
 * store never opens). Without a payment recipient the paid gateway is off (it would start its
 * recovery sweep); tests of the paid terms build them with `baseTerms`.
 */
import type { Hono } from "hono";
import { type Address, keccak256, stringToHex } from "viem";
import { readServiceEnv } from "../core/network/env.js";
import { selectNetwork } from "../src/networks/index.js";
import { createApp } from "./app.js";
import { createReportContext } from "./context.js";
import type { ReadDb } from "./io/indexed-reads.js";
import { createFacilitatorClient } from "./paid/facilitator.js";
import type { PaidTerms } from "./paid/x402-routes.js";
import { RegistryService } from "./registry/registry-service.js";
import { StatementService } from "./statements/statement-service.js";
import type { OperatorStore } from "./store/operator-store.js";

export const TEST_SITE_URL = "http://localhost:42069";
const CLOSED_PORT_RPC = "http://127.0.0.1:9";

const baseEnv = (extra: Record<string, string> = {}) =>
  readServiceEnv({
    KUSD_NETWORK: "base",
    PONDER_RPC_URL_8453: CLOSED_PORT_RPC,
    KUSD_READ_RPC_URL_1: CLOSED_PORT_RPC,
    KUSD_SITE_URL: TEST_SITE_URL,
    ...extra,
  });

export function inProcessApp(): Hono {
  const env = baseEnv();
  const network = selectNetwork(env);
  const ctx = createReportContext(network, {} as ReadDb, TEST_SITE_URL);
  const store = new Promise<OperatorStore>(() => {});
  const keys = { operator: null, attestation: null, attestationFrom: network.reporting.signers.attestationFrom };
  return createApp({
    ctx,
    statements: new StatementService(ctx, store, keys),
    registry: new RegistryService(ctx, () => ({})),
    keys,
    store,
    siteUrl: TEST_SITE_URL,
    env,
  });
}

/**
 * The Base document's payment terms with `recipient`, and an in-process facilitator (its key pays
 * for nothing: asking which kinds it supports reads no chain).
 */
export function baseTerms(recipient: Address): PaidTerms & { facilitator: ReturnType<typeof createFacilitatorClient> } {
  const privateKey = keccak256(stringToHex("kusd:tests:unused-facilitator"));
  const pay = selectNetwork(
    baseEnv({ KUSD_PAYMENT_RECIPIENT: recipient, KUSD_FACILITATOR_PRIVATE_KEY: privateKey }),
  ).payments;
  return {
    basePath: "/paid",
    publicUrl: `${TEST_SITE_URL}/paid`,
    network: pay.network,
    recipient,
    builderCode: pay.builderCode,
    asset: pay.asset,
    prices: { reserves: 250_000n, instantRead: 29_000_000n },
    facilitator: createFacilitatorClient({ kind: "local", rpcUrl: CLOSED_PORT_RPC, privateKey, network: pay.network }),
  };
}
