import { validateDiscoveryExtension } from "@x402/extensions/bazaar";
import { Hono } from "hono";
import { getAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../http/openapi-document.js";
import { baseTerms, inProcessApp, TEST_SITE_URL } from "../in-process-app.test-support.js";
import { gatewayDescriptor } from "../paid/openapi.js";
import { jsonSchemaOf, PAID_OPERATIONS } from "../paid/operations.js";
import { discoveryRoutes } from "./routes.js";
import { WellKnownX402Schema } from "./well-known-x402.js";

const RECIPIENT = getAddress("0x00000000000000000000000000000000000c0ffe");
const terms = baseTerms(RECIPIENT);
const get = (app: Hono, path: string) => app.request(`${TEST_SITE_URL}${path}`);

/** The discovery routes with the paid gateway's terms, over the real free OpenAPI document. */
function withGateway() {
  const app = inProcessApp();
  const openApi = async () => (await get(app, "/api/openapi.json")).json();
  const discovery = new Hono();
  discovery.route("/", discoveryRoutes({ siteUrl: TEST_SITE_URL, openApi, gateway: terms }));
  return discovery;
}

describe("GET /llms.txt", () => {
  const app = inProcessApp();
  let text: string;
  let free: any;
  beforeAll(async () => {
    const res = await get(app, "/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    text = await res.text();
    free = await (await get(app, "/api/openapi.json")).json();
  });

  it("has llmstxt.org's shape: an H1, a blockquote summary, then H2 sections of link lists", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe(`# ${free.info.title}`);
    expect(lines[2]).toMatch(/^> \S/);
    const sections = text.split(/\n(?=## )/).slice(1);
    expect(sections.length).toBeGreaterThan(3);
    for (const section of sections)
      for (const line of section.split("\n").slice(1).filter(Boolean))
        expect(line).toMatch(/^- \[[^\]]+\]\([^)]+\): \S/);
  });

  it("lists every operation of /api/openapi.json with its summary and every parameter", () => {
    const operations = Object.entries(free.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    expect(operations.length).toBeGreaterThan(40);
    for (const { path, method, op } of operations) {
      const line = text.split("\n").find((l) => l.startsWith(`- [${method} ${path}](${TEST_SITE_URL}${path}): `));
      expect(line, `${method} ${path}`).toBeDefined();
      expect(line).toContain(op.summary.replace(/\s+/g, " "));
      for (const p of op.parameters ?? []) expect(line, `${path} ${p.name}`).toContain(`\`${p.name}\` (${p.in};`);
    }
  });

  it("is described in /api/openapi.json like the other free routes, and /api/openapi.json links to it", () => {
    expect(free.paths["/llms.txt"].get.responses["200"].content["text/markdown"]).toBeDefined();
    expect(free["x-discovery"]).toEqual({ llmsTxtUrl: `${TEST_SITE_URL}/llms.txt`, mcpUrl: `${TEST_SITE_URL}/mcp` });
  });

  it("names the paid routes with their price and request body when the gateway is on", async () => {
    const paid = await (await get(withGateway(), "/llms.txt")).text();
    const descriptor = gatewayDescriptor(terms);
    for (const op of PAID_OPERATIONS) {
      const line = paid
        .split("\n")
        .find((l) => l.startsWith(`- [${op.method} /paid${op.path}](${terms.publicUrl}${op.path}): `));
      const info = (descriptor.paths as any)[op.path][op.method.toLowerCase()]["x-payment-info"];
      expect(line).toContain(`Price ${info.price.amount} USD`);
      expect(line).toContain(`${terms.asset.address} on ${terms.network}, to ${RECIPIENT}`);
      for (const field of Object.keys((op.request && jsonSchemaOf(op.request.schema, "input").properties) ?? {}))
        expect(line).toContain(`\`${field}\``);
    }
    expect(paid).toContain(`[x402 discovery](${TEST_SITE_URL}/.well-known/x402)`);
  });
});

describe("GET /.well-known/x402", () => {
  it("lists both paid resources with the gateway's terms and their Bazaar extension", async () => {
    const res = await get(withGateway(), "/.well-known/x402");
    expect(res.status).toBe(200);
    const doc = WellKnownX402Schema.parse(await res.json());
    expect(doc.resources).toEqual(PAID_OPERATIONS.map((op) => `${terms.publicUrl}${op.path}`));
    for (const [i, op] of PAID_OPERATIONS.entries()) {
      const item = doc.items[i]!;
      expect(item).toMatchObject({ resource: doc.resources[i], method: op.method, operationId: op.operationId });
      expect(item.accepts).toEqual([
        expect.objectContaining({
          scheme: "exact",
          network: terms.network,
          amount: terms.prices[op.price].toString(),
          asset: terms.asset.address,
          payTo: RECIPIENT,
        }),
      ]);
      const bazaar = item.extensions.bazaar as any;
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(bazaar.info.input.method).toBe(op.method);
      expect(bazaar.schema.properties.output.properties.example).toEqual({
        ...jsonSchemaOf(op.response.schema, "output"),
        type: "object",
      });
    }
  });

  it("is described in the OpenAPI document of an app that serves it", async () => {
    const app = withGateway();
    const doc = (await openApiDocument(app, { siteUrl: TEST_SITE_URL, version: "0" })()) as any;
    expect(Object.keys(doc.paths).sort()).toEqual(["/.well-known/x402", "/llms.txt"]);
    expect(doc.paths["/.well-known/x402"].get.responses["200"].content["application/json"].schema).toBeDefined();
  });

  it("is not served without a paid gateway", async () => {
    expect((await get(inProcessApp(), "/.well-known/x402")).status).toBe(404);
  });
});
