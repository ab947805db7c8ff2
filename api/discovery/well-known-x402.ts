/**
 * GET /.well-known/x402: the paid resources of this origin, for agents and catalogs that look here
 * first. x402's own specifications define no such document (coinbase/x402 issue #869 proposes
 * one); its shape follows the two conventions in use, in one object:
 *   - x402scan's discovery document (Merit-Systems/x402scan docs/DISCOVERY.md): `version: 1` and
 *     `resources`, the URLs of the paid resources;
 *   - x402 v2's discovery API (specification section 8, `GET /discovery/resources` of a
 *     facilitator): `x402Version: 2` and `items`, each resource with its `accepts` (price as
 *     amount in the asset's units, network, asset, payTo) and its Bazaar extension (input and
 *     output schemas), as a facilitator would list them.
 * Plus where the descriptor and llms.txt are.
 */

import { addressSchema } from "@kusd/core";
import { z } from "zod";
import type { PaidResource } from "../paid/discovery.js";

const PaymentRequirementsSchema = z
  .object({
    scheme: z.string(),
    network: z.string().describe("CAIP-2 network id"),
    amount: z.string().regex(/^\d+$/).describe("price in the asset's smallest units"),
    asset: addressSchema.describe("ERC-20 paid with (EIP-3009)"),
    payTo: addressSchema.describe("the recipient"),
    maxTimeoutSeconds: z.number().int(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("an x402 v2 PaymentRequirements, as in the 402's accepts");

const PaidResourceSchema = z.object({
  resource: z.string().describe("the resource URL"),
  type: z.literal("http"),
  x402Version: z.literal(2),
  method: z.enum(["GET", "POST"]),
  operationId: z.string().describe("the operation in the gateway descriptor"),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  serviceName: z.string().optional(),
  accepts: z.array(PaymentRequirementsSchema),
  extensions: z
    .object({
      bazaar: z.object({ info: z.record(z.string(), z.unknown()), schema: z.record(z.string(), z.unknown()) }),
    })
    .describe("the Bazaar discovery extension of the 402: input and output, with their JSON Schema"),
  lastUpdated: z.string().describe("when this process built the list (ISO 8601)"),
  metadata: z.object({
    price: z.object({ mode: z.literal("fixed"), currency: z.literal("USD"), amount: z.string() }),
    asset: z.object({ symbol: z.string(), decimals: z.number().int() }),
  }),
});

export const WellKnownX402Schema = z
  .strictObject({
    version: z.literal(1).describe("x402scan's discovery document version"),
    resources: z.array(z.string()).describe("the paid resources' URLs"),
    x402Version: z.literal(2),
    items: z.array(PaidResourceSchema).describe("each paid resource as x402's discovery API lists it"),
    descriptor: z.string().describe("the paid gateway's OpenAPI descriptor"),
    llmsTxt: z.string().describe("the API described for language-model agents"),
  })
  .describe("the paid x402 resources of this origin");

export type WellKnownX402 = z.infer<typeof WellKnownX402Schema>;

export function wellKnownX402(items: PaidResource[], links: { descriptor: string; llmsTxt: string }): WellKnownX402 {
  return {
    version: 1,
    resources: items.map((i) => i.resource),
    x402Version: 2,
    items: items as WellKnownX402["items"],
    descriptor: links.descriptor,
    llmsTxt: links.llmsTxt,
  };
}
