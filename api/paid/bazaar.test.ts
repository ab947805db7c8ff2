import {
  bazaarResourceServerExtension,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from "@x402/extensions/bazaar";
import { describe, expect, it } from "vitest";
import { bazaarExtension } from "./bazaar.js";
import { jsonSchemaOf, PAID_OPERATIONS } from "./operations.js";

type Extension = Parameters<typeof validateDiscoveryExtension>[0];

describe.each(PAID_OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))(
  "%s's Bazaar extension",
  (_, op) => {
    const declared = bazaarExtension(op).bazaar;
    // As the x402 middleware sends it: the extension's own enrichment adds the request's method.
    const path = `/paid${op.path}`;
    const request = { method: op.method, adapter: { getPath: () => path }, routePattern: path };
    const ext = bazaarResourceServerExtension.enrichDeclaration!(declared, request) as Extension & {
      info: any;
      schema: any;
    };

    it("passes @x402/extensions' own validators (info against its schema; the protocol's rules)", () => {
      expect(ext.info.input.method).toBe(op.method);
      expect(ext.schema.properties.input.properties.method).toEqual({ type: "string", enum: [op.method] });
      expect(validateDiscoveryExtension(ext)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(ext as never)).toEqual({ valid: true });
    });

    it("carries the route contract's schemas, and examples those contracts accept", () => {
      const output = ext.schema.properties.output.properties.example;
      expect(output).toEqual({ ...jsonSchemaOf(op.response.schema, "output"), type: "object" });
      expect(op.response.schema.safeParse(ext.info.output.example).success).toBe(true);
      const input = ext.schema.properties.input.properties;
      if (op.request) {
        expect(ext.info.input.bodyType).toBe("json");
        expect(input.body).toEqual(jsonSchemaOf(op.request.schema, "input"));
        expect(op.request.schema.safeParse(ext.info.input.body).success).toBe(true);
      } else {
        expect(input.queryParams).toEqual({ type: "object", properties: {}, additionalProperties: false });
      }
    });

    it("is refused by the same validator when its example breaks the contract", () => {
      const broken = structuredClone(ext);
      broken.info.output.example.signature = "not hex";
      expect(validateDiscoveryExtension(broken).valid).toBe(false);
    });
  },
);
