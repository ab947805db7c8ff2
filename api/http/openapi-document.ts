/**
 * `/api/openapi.json`: the OpenAPI 3.1 document of the free endpoints, generated from the routes'
 * own contracts (query and response schemas), so it cannot drift from what the routes do. The
 * paid gateway publishes its own descriptor at `/paid/openapi.json`.
 */
import type { Hono } from "hono";
import { generateSpecs, resolver } from "hono-openapi";
import { z } from "zod";
import { declaredTags } from "./api-tags.js";
import { type CatalogedCode, ERROR_CODES, PARAMETER_CODE } from "./error-codes.js";

const ErrorCodeSchema = z
  .union([
    z.enum(Object.keys(ERROR_CODES) as [CatalogedCode, ...CatalogedCode[]]),
    z.string().regex(PARAMETER_CODE).describe("invalid_<parameter>: that query or body parameter failed its check"),
  ])
  .describe("stable, machine-matchable; each code's status and meaning: docs/api.md#error-codes");

const ErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: ErrorCodeSchema,
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .describe("every non-2xx answer");

/**
 * Where an agent finds what this document does not hold, under the root key `x-discovery`: the
 * key x402scan's discovery specification reads from an OpenAPI document (its `llmsTxtUrl`), with
 * the MCP server (Streamable HTTP), and the x402 discovery document and the paid gateway's
 * descriptor beside them when the gateway is on.
 */
export type DiscoveryLinks = { llmsTxtUrl: string; mcpUrl?: string; x402Url?: string; paidOpenApiUrl?: string };

export type OpenApiOptions = { siteUrl: string; version: string; discovery?: DiscoveryLinks };

/** Built once per process on first request: the routes do not change while it runs. */
export function openApiDocument(app: Hono, o: OpenApiOptions): () => Promise<unknown> {
  let doc: Promise<unknown> | null = null;
  return () => (doc ??= build());

  async function build() {
    // The error body's schema, converted as hono-openapi converts every other schema of the document.
    const error = (await resolver(ErrorSchema).toOpenAPISchema()).schema;
    return withDeclaredTags(
      await generateSpecs(app, {
        documentation: {
          openapi: "3.1.0",
          info: {
            title: "kUSD transparency API",
            version: o.version,
            description:
              "Reserves, liabilities, solvency, redemption capacity, yield and the account registry of kUSD, each figure recomputable from public chain and venue reads (the verifyVia commands). Free endpoints; the paid gateway is described at /paid/openapi.json.",
            license: { name: "MIT", identifier: "MIT" },
          },
          servers: [{ url: o.siteUrl }],
          ...(o.discovery && { "x-discovery": o.discovery }),
          components: { schemas: { Error: error } },
        },
        exclude: [/^\/paid/, /^\/graphql/, /^\/sql/, /^\/ponder/, /^\/__bench/, "/api/openapi.json"],
        // hono-openapi leaves out a path whose last segment has a dot as a static file: the exports
        // (/api/export/psmSwaps.csv) are routes, and no static file is described.
        excludeStaticFile: false,
        defaultValidationErrorResponse: {
          description: "a query parameter is malformed",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        // Every operation here is free: each says so (`security: []`, no scheme), as OpenAPI asks of
        // an operation that needs no credentials; the paid ones are in the gateway's descriptor.
        defaultOptions: Object.fromEntries(DOCUMENTED_METHODS.map((m) => [m, { security: [] }])),
      }),
    );
  }
}

const DOCUMENTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The document with the tags its operations use declared at the root, each with its description. */
function withDeclaredTags<D extends { paths?: unknown }>(doc: D): D {
  return { ...doc, tags: declaredTags((doc.paths ?? {}) as Parameters<typeof declaredTags>[0]) };
}
