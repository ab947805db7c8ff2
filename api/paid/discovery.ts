/**
 * The paid resources as an x402 facilitator's discovery API lists them (spec v2 section 8,
 * `GET /discovery/resources`; the DiscoveryResource type of @x402/extensions): the resource URL,
 * its `accepts` (the PaymentRequirements a 402 asks) and its Bazaar extension, plus the method
 * and the price in USD. Built by x402's own resource server from the same route configuration
 * as the gateway's middleware (x402-routes.ts), so it offers exactly the 402's terms.
 *
 * A resource server of its own, not the middleware's: x402ResourceServer.initialize() clears and
 * refills the facilitator's supported kinds, which would race a 402 being built.
 */
import type { FacilitatorClient } from "@x402/core/server";
import { x402ResourceServer } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension, type DiscoveryResource } from "@x402/extensions/bazaar";
import { type PaidTerms, paidRoutes, unitsText } from "./x402-routes.js";

export type PaidResource = DiscoveryResource & {
  method: "GET" | "POST";
  operationId: string;
  /** Spec v2 8.2's free-form metadata: the price in USD (the asset is a USD stablecoin) and the asset's symbol. */
  metadata: { price: { mode: "fixed"; currency: "USD"; amount: string }; asset: { symbol: string; decimals: number } };
};

export function paidResources(o: PaidTerms & { facilitator: FacilitatorClient }): () => Promise<PaidResource[]> {
  const server = new x402ResourceServer(o.facilitator).register(o.network, new ExactEvmScheme());
  server.registerExtension(bazaarResourceServerExtension);
  const routes = paidRoutes(o);
  // The terms do not change while the process runs: asked of the facilitator once (again after a failure).
  let built: Promise<PaidResource[]> | null = null;
  const build = async () => {
    await server.initialize();
    const lastUpdated = new Date().toISOString();
    return Promise.all(
      routes.map(async ({ operation, path, config }): Promise<PaidResource> => {
        // What the x402 middleware knows of a request when it answers 402 (the Bazaar extension reads the method and path).
        const request = { method: operation.method, path, routePattern: path, adapter: { getPath: () => path } };
        const accepts = await server.buildPaymentRequirementsFromOptions([config.accepts], request);
        return {
          resource: config.resource,
          type: "http",
          x402Version: 2,
          method: operation.method,
          operationId: operation.operationId,
          description: config.description,
          mimeType: config.mimeType,
          serviceName: config.serviceName,
          accepts,
          extensions: server.enrichExtensions(config.extensions, request),
          lastUpdated,
          metadata: {
            price: { mode: "fixed", currency: "USD", amount: unitsText(o.prices[operation.price], o.asset.decimals) },
            asset: { symbol: o.asset.symbol, decimals: o.asset.decimals },
          },
        };
      }),
    );
  };
  return () =>
    (built ??= build().catch((e: unknown) => {
      built = null;
      throw e;
    }));
}
