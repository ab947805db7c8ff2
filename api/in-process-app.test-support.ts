/**
 * The whole application in process for route tests (`app.request(...)`), configured from the
 * committed Base network document (api/standalone-app.ts): no request may need the database, the
 * store or a chain. Without a payment recipient the paid gateway is off (it would start its
 * recovery sweep); tests of the paid terms build them with `baseTerms`.
 */

import { selectNetwork } from "@kusd/config/node";
import type { Hono } from "hono";
import { type Address, keccak256, stringToHex } from "viem";
import { createFacilitatorClient } from "./paid/facilitator.js";
import { PRICES } from "./paid/gateway-options.js";
import type { PaidTerms } from "./paid/x402-routes.js";
import { STANDALONE_SITE_URL, standaloneApp, standaloneEnv, UNREACHABLE_RPC } from "./standalone-app.js";

export const TEST_SITE_URL = STANDALONE_SITE_URL;

export function inProcessApp(): Hono {
  return standaloneApp();
}

/**
 * The Base document's payment terms with `recipient`, and an in-process facilitator (its key pays
 * for nothing: asking which kinds it supports reads no chain).
 */
export function baseTerms(recipient: Address): PaidTerms & { facilitator: ReturnType<typeof createFacilitatorClient> } {
  const privateKey = keccak256(stringToHex("kusd:tests:unused-facilitator"));
  const pay = selectNetwork(
    standaloneEnv({ KUSD_PAYMENT_RECIPIENT: recipient, KUSD_FACILITATOR_PRIVATE_KEY: privateKey }),
  ).payments;
  return {
    basePath: "/paid",
    publicUrl: `${TEST_SITE_URL}/paid`,
    network: pay.network,
    recipient,
    builderCode: pay.builderCode,
    asset: pay.asset,
    prices: PRICES,
    facilitator: createFacilitatorClient({ kind: "local", rpcUrl: UNREACHABLE_RPC, privateKey, network: pay.network }),
  };
}
