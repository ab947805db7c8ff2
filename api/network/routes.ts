/**
 * GET /api/network: the network document this service reads the chain with (the operator's
 * deployment file and our `kusd` section): every contract and account the figures are read from.
 * A reader re-deriving a statement (the page's "check every figure", `kusd-verify --network`)
 * needs exactly these addresses, and can compare them with the operator's published file.
 */

import type { NetworkDocument } from "@kusd/config";
import { Hono } from "hono";
import { z } from "zod";
import { contract } from "../http/route-contract.js";

export const NetworkDocumentSchema = z
  .looseObject({
    chainId: z.int().describe("the chain the contracts are on (8453: Base)"),
    contracts: z.record(z.string(), z.unknown()).describe("the operator's deployment file: its contracts by name"),
    kusd: z
      .looseObject({ schema: z.literal("kusd-network/v1") })
      .describe("which of them this service indexes and reads, and the accounts, feeds and signers it reports on"),
  })
  .meta({ description: "The network document this service runs on (docs/base-mainnet.md)." });

export const networkContract = {
  summary: "The contracts and accounts every figure is read from (the network document this service runs on)",
  description:
    "The operator's deployment file with this service's kusd-network/v1 section, as the service loaded it at start (published registry versions from KUSD_REGISTRY_SOURCE are served at /api/por/accounts). kusd-verify --network takes this document to re-derive a statement's figures; compare it with the operator's own file before trusting it.",
  tags: ["Reserves"],
  response: NetworkDocumentSchema,
};

export function networkRoutes(doc: NetworkDocument) {
  const app = new Hono();
  const body = JSON.stringify(doc);
  app.get("/api/network", ...contract(networkContract), (c) =>
    c.body(body, 200, { "content-type": "application/json", "cache-control": "public, max-age=300" }),
  );
  return app;
}
