/**
 * The x402 route configuration of the paid operations (operations.ts): what each costs, in which
 * asset, paid to whom, and what its 402 says (the resource, the Bazaar discovery extension, the
 * JSON body of an unpaid answer). The gateway's middleware and /.well-known/x402 (discovery.ts)
 * are both built from it, so the discovery document cannot offer other terms than the 402.
 */
import type { Address } from "viem";
import { errorBody } from "../http/errors.js";
import { bazaarExtension } from "./bazaar.js";
import { PAID_OPERATIONS, type PaidOperation } from "./operations.js";

/** What a paid route's terms are made of (part of GatewayOptions). */
export type PaidTerms = {
  basePath: string;
  /** Public URL of the gateway (the descriptor's server URL, the 402's resource URLs). */
  publicUrl: string;
  network: `${string}:${string}`;
  recipient: Address;
  builderCode: string;
  asset: { address: Address; name: string; version: string; symbol: string; decimals: number };
  /** Prices in the asset's smallest units (USDC: 6 decimals). */
  prices: { reserves: bigint; instantRead: bigint };
};

/** The service name x402 catalogs show for our resources (at most 32 printable characters). */
export const PAID_SERVICE_NAME = "kUSD transparency";

export type PaidRoute = {
  operation: PaidOperation;
  /** The x402 route key, "GET /paid/reserves". */
  key: string;
  /** Request path on this server. */
  path: string;
  config: ReturnType<typeof routeConfig>;
};

function routeConfig(o: PaidTerms, op: PaidOperation) {
  return {
    accepts: {
      scheme: "exact",
      network: o.network,
      payTo: o.recipient,
      // For a token other than the chain's default USDC, x402 takes the price as asset + amount + its EIP-712 domain.
      price: {
        asset: o.asset.address,
        amount: o.prices[op.price].toString(),
        extra: { name: o.asset.name, version: o.asset.version },
      },
      maxTimeoutSeconds: 300,
      extra: { builderCode: o.builderCode },
    },
    resource: `${o.publicUrl}${op.path}`,
    description: op.description,
    mimeType: "application/json",
    serviceName: PAID_SERVICE_NAME,
    extensions: bazaarExtension(op),
    unpaidResponseBody: () => ({
      contentType: "application/json",
      body: errorBody(
        "payment_required",
        `${op.method} ${op.path} is paid per request over x402 v2: see the PAYMENT-REQUIRED header`,
        { descriptor: `${o.publicUrl}/openapi.json` },
      ),
    }),
  };
}

export function paidRoutes(o: PaidTerms): PaidRoute[] {
  return PAID_OPERATIONS.map((operation) => {
    const path = `${o.basePath}${operation.path}`;
    return { operation, key: `${operation.method} ${path}`, path, config: routeConfig(o, operation) };
  });
}

/** An amount in the asset's smallest units as a decimal string of whole units, six places ("0.250000"). */
export const unitsText = (amount: bigint, decimals: number) => (Number(amount) / 10 ** decimals).toFixed(6);
