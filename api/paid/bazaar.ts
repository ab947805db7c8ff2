/**
 * The x402 Bazaar discovery extension (specs/extensions/bazaar.md of the x402 repository) a paid
 * operation declares in every 402: `info` (how to call it, with an example request and answer)
 * and `schema` (a JSON Schema that `info` validates against). Built with @x402/extensions' own
 * `declareDiscoveryExtension`, from the operation's zod contracts: the request body's schema
 * becomes `input.body`'s, the response's becomes `output.example`'s. The x402 middleware adds the
 * HTTP method when it answers (the extension's `enrichDeclaration`).
 */
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { jsonSchemaOf, type PaidOperation } from "./operations.js";

export function bazaarExtension(op: PaidOperation): Record<string, unknown> {
  const output = { example: op.response.example, schema: jsonSchemaOf(op.response.schema, "output") };
  if (op.request)
    return declareDiscoveryExtension({
      bodyType: "json",
      input: op.request.example as Record<string, unknown>,
      inputSchema: jsonSchemaOf(op.request.schema, "input"),
      output,
    });
  // No query parameters: the schema says so rather than leaving any allowed.
  return declareDiscoveryExtension({ input: {}, inputSchema: { properties: {}, additionalProperties: false }, output });
}
