/**
 * Discovery for agents: GET /llms.txt (always) and GET /.well-known/x402 (with the paid gateway
 * on). Both are generated: llms.txt from the OpenAPI documents, the x402 document from the
 * gateway's route configuration (paid/discovery.ts).
 */

import type { FacilitatorClient } from "@x402/core/server";
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { ApiError } from "../http/errors.js";
import { contract } from "../http/route-contract.js";
import { paidResources } from "../paid/discovery.js";
import { gatewayDescriptor } from "../paid/openapi.js";
import type { PaidTerms } from "../paid/x402-routes.js";
import { type LlmsTxtInput, type OpenApiLike, renderLlmsTxt } from "./llms-txt.js";
import { WellKnownX402Schema, wellKnownX402 } from "./well-known-x402.js";

export const LLMS_TXT_PATH = "/llms.txt";
export const WELL_KNOWN_X402_PATH = "/.well-known/x402";

/** Both change only with a deployment: a cache may keep them a while. */
const CACHE_CONTROL = "public, max-age=300";

export type DiscoveryOptions = {
  siteUrl: string;
  /** GET /api/openapi.json's document. */
  openApi: () => Promise<unknown>;
  /** The paid gateway's terms and facilitator, when it is on. */
  gateway: (PaidTerms & { facilitator: FacilitatorClient }) | null;
};

export const wellKnownX402Contract = {
  summary: "The paid x402 resources of this origin: price, network, asset, recipient, input and output schemas",
  description:
    "x402scan's discovery document (version, resources) and x402 v2's discovery-API listing (x402Version, items) in one: each item carries the 402's accepts and its Bazaar discovery extension.",
  tags: ["Discovery"],
  response: WellKnownX402Schema,
  errors: { 503: "the x402 facilitator did not say which payment kinds it supports" },
};

const llmsTxtDescription = describeRoute({
  summary: "The API described for language-model agents (llmstxt.org), generated from the OpenAPI documents",
  description:
    "Markdown: a summary, then every operation of this document and of the paid gateway's descriptor as a link with its summary, parameters and, for a paid route, its price and request body.",
  tags: ["Discovery"],
  responses: {
    200: {
      description:
        "Markdown in the llms.txt format: every route with its summary and parameters, paid routes with their price",
      content: { "text/markdown": { schema: { type: "string" } } },
    },
  },
});

export function discoveryRoutes(o: DiscoveryOptions) {
  const app = new Hono();
  const paid = o.gateway && {
    descriptor: gatewayDescriptor(o.gateway),
    descriptorUrl: `${o.gateway.publicUrl}/openapi.json`,
    resources: paidResources(o.gateway),
  };
  const llmsTxtUrl = `${o.siteUrl}${LLMS_TXT_PATH}`;
  const links: LlmsTxtInput["links"] = [
    { name: "OpenAPI 3.1", url: `${o.siteUrl}/api/openapi.json`, note: "the free routes with their JSON Schemas" },
    ...(paid
      ? [
          { name: "Paid gateway descriptor", url: paid.descriptorUrl, note: "OpenAPI 3.1 of the x402 paid routes" },
          {
            name: "x402 discovery",
            url: `${o.siteUrl}${WELL_KNOWN_X402_PATH}`,
            note: "the paid resources with their payment requirements and Bazaar schemas",
          },
        ]
      : []),
    { name: "GraphQL", url: `${o.siteUrl}/graphql`, note: "the same figures over GraphQL (introspection on)" },
    {
      name: "MCP",
      url: `${o.siteUrl}/mcp`,
      note: "Model Context Protocol over Streamable HTTP (POST): every free report as a tool, the paid artifacts as x402 paid tools; `kusd-mcp --api <site>` serves the same over stdio and pays from the agent's own key",
    },
  ];
  let text: Promise<string> | null = null;
  app.get(LLMS_TXT_PATH, llmsTxtDescription, async (c) => {
    text ??= o
      .openApi()
      .then((free) =>
        renderLlmsTxt({ free: free as OpenApiLike, paid: (paid?.descriptor ?? null) as OpenApiLike | null, links }),
      )
      .catch((e: unknown) => {
        text = null;
        throw e;
      });
    c.header("Cache-Control", CACHE_CONTROL);
    return c.body(await text, 200, { "Content-Type": "text/markdown; charset=utf-8" });
  });
  if (paid) {
    app.get(WELL_KNOWN_X402_PATH, ...contract(wellKnownX402Contract), async (c) => {
      const resources = await paid.resources().catch((e: unknown) => {
        throw new ApiError(
          "facilitator_unavailable",
          "the x402 facilitator did not say which payment kinds it supports",
          {
            cause: (e as Error).message?.split("\n")[0] ?? String(e),
          },
        );
      });
      const doc = wellKnownX402(resources, { descriptor: paid.descriptorUrl, llmsTxt: llmsTxtUrl });
      c.header("Cache-Control", CACHE_CONTROL);
      return c.json(doc);
    });
  }
  return app;
}
