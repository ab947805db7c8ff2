/**
 * x402 discovery and CORS on the running stack (Ponder serving the app, the gateway on the
 * devnet): every 402 carries the Bazaar discovery extension, which @x402/extensions' own
 * validators accept and whose schemas are the route contracts'; /.well-known/x402 offers exactly
 * the 402's terms; the documents /api/openapi.json links to answer; and no answer of any route,
 * Ponder's own included, pairs `Access-Control-Allow-Origin: *` with credentials.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import {
  extractDiscoveryInfo,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from "@x402/extensions/bazaar";
import { getAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonSchemaOf, PAID_OPERATIONS, type PaidOperation } from "../../api/paid/operations.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const ORIGIN = "https://elsewhere.example";
const ask = (path: string, init: RequestInit = {}) =>
  fetch(`${s.indexerUrl}${path}`, { ...init, headers: { origin: ORIGIN, ...init.headers } });
const listed = (header: string | null) => (header ?? "").split(",").map((h) => h.trim().toLowerCase());

/** An unpaid request for the operation, valid in every other way (so the gateway asks for payment). */
function unpaid(op: PaidOperation) {
  const dai = getAddress(d.chains.ethereum.contracts.DAI!.address);
  return op.method === "GET"
    ? ask(`/paid${op.path}`)
    : ask(`/paid${op.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chain: "ethereum", address: dai }),
      });
}

const challenges = new Map<string, { res: Response; required: PaymentRequired; header: string }>();

beforeAll(async () => {
  await s.caughtUp();
  for (const op of PAID_OPERATIONS) {
    const res = await unpaid(op);
    await res.body?.cancel();
    const header = res.headers.get("PAYMENT-REQUIRED") ?? "";
    challenges.set(op.operationId, { res, header, required: decodePaymentRequiredHeader(header) });
  }
});

describe.each(PAID_OPERATIONS.map((op) => [`${op.method} /paid${op.path}`, op] as const))("%s unpaid", (_, op) => {
  it("answers 402 whose PAYMENT-REQUIRED carries a Bazaar extension @x402/extensions validates", () => {
    const { res, required, header } = challenges.get(op.operationId)!;
    expect(res.status).toBe(402);
    const bazaar = required.extensions?.bazaar as any;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar)).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({ type: "http", method: op.method });
    // A PAYMENT-SIGNATURE echoes the extension: keep the challenge far below Node's 16 KiB header limit.
    expect(header.length).toBeLessThan(8 * 1024);
    console.log(`${op.method} /paid${op.path}: PAYMENT-REQUIRED is ${header.length} characters`);
  });

  it("carries the route contract's schemas: the response's for the output, the body's for the input", () => {
    const bazaar = challenges.get(op.operationId)!.required.extensions?.bazaar as any;
    expect(bazaar.schema.properties.output.properties.example).toEqual({
      ...jsonSchemaOf(op.response.schema, "output"),
      type: "object",
    });
    expect(op.response.schema.safeParse(bazaar.info.output.example).success).toBe(true);
    if (op.request) {
      expect(bazaar.schema.properties.input.properties.body).toEqual(jsonSchemaOf(op.request.schema, "input"));
      expect(op.request.schema.safeParse(bazaar.info.input.body).success).toBe(true);
    }
  });

  it("is what a facilitator catalogs: extractDiscoveryInfo over a payment that echoes the challenge", () => {
    const { required } = challenges.get(op.operationId)!;
    const payment = {
      x402Version: 2,
      resource: required.resource,
      accepted: required.accepts[0]!,
      payload: {},
      extensions: required.extensions,
    };
    const found = extractDiscoveryInfo(payment as never, required.accepts[0]!);
    expect(found).toMatchObject({ method: op.method, resourceUrl: required.resource.url, x402Version: 2 });
    expect(new URL(required.resource.url).pathname).toBe(`/paid${op.path}`);
  });

  it("lets a script on another origin read it: Allow-Origin *, no credentials, PAYMENT-REQUIRED exposed", () => {
    const { res } = challenges.get(op.operationId)!;
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(listed(res.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["payment-required", "payment-response", "etag", "x-request-id", "retry-after"]),
    );
  });
});

describe("GET /.well-known/x402", () => {
  it("offers exactly the 402's terms and Bazaar extension for each paid resource", async () => {
    const res = await ask("/.well-known/x402");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.version).toBe(1);
    expect(doc.x402Version).toBe(2);
    for (const [i, op] of PAID_OPERATIONS.entries()) {
      const { required } = challenges.get(op.operationId)!;
      const item = doc.items[i];
      expect(doc.resources[i]).toBe(required.resource.url);
      expect(item.resource).toBe(required.resource.url);
      expect(item.method).toBe(op.method);
      expect(item.accepts).toEqual(required.accepts);
      expect(item.extensions).toEqual(required.extensions);
      expect(item.metadata.price).toEqual({
        mode: "fixed",
        currency: "USD",
        amount: (Number(required.accepts[0]!.amount) / 1e6).toFixed(6),
      });
    }
  });
});

describe("the documents /api/openapi.json links to", () => {
  it("answer 200: llms.txt (text/markdown), the x402 document and the paid descriptor; the MCP server answers initialize", async () => {
    const doc = (await (await ask("/api/openapi.json")).json()) as any;
    const { mcpUrl, ...links } = doc["x-discovery"] as Record<string, string>;
    expect(Object.keys(links).sort()).toEqual(["llmsTxtUrl", "paidOpenApiUrl", "x402Url"]);
    // As an agent asks (no Origin): a page on another origin is refused by /mcp's Origin check.
    const initialize = (origin?: string) =>
      fetch(`${s.indexerUrl}${new URL(mcpUrl!).pathname}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(origin && { origin }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "discovery-test", version: "0" },
          },
        }),
      });
    expect((await initialize(ORIGIN)).status).toBe(403);
    const mcp = await initialize();
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).toContain('"serverInfo"');
    for (const url of Object.values(links)) {
      const res = await ask(new URL(url).pathname);
      expect(res.status, url).toBe(200);
      await res.body?.cancel();
    }
    const llms = await ask(new URL(links.llmsTxtUrl!).pathname);
    expect(llms.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await llms.text();
    for (const op of PAID_OPERATIONS) expect(text).toContain(`- [${op.method} /paid${op.path}](`);
  });
});

describe("CORS on every route", () => {
  it("a preflight for the payment header is allowed on the paid routes and /graphql", async () => {
    for (const [path, method] of [
      ["/paid/reserves", "GET"],
      ["/paid/instant-read", "POST"],
      ["/graphql", "POST"],
    ] as const) {
      const res = await ask(path, {
        method: "OPTIONS",
        headers: {
          "access-control-request-method": method,
          "access-control-request-headers": "payment-signature, content-type",
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("access-control-allow-credentials"), path).toBeNull();
      expect(listed(res.headers.get("access-control-allow-headers")), path).toEqual(
        expect.arrayContaining(["payment-signature", "content-type"]),
      );
      expect(listed(res.headers.get("access-control-allow-methods")), path).toContain(method.toLowerCase());
    }
  });

  it("no answer pairs * with credentials: every documented GET, GraphQL, the paid routes, Ponder's routes, a 404", async () => {
    const doc = (await (await ask("/api/openapi.json")).json()) as { paths: Record<string, object> };
    const end = d.chains.base.historyEndBlock;
    const documented = Object.keys(doc.paths).map(
      (p) => `${p.replace(/\{[^}]+\}/g, `0x${"0".repeat(64)}`)}?block=${end}&amount=1000&below=1.1`,
    );
    const requests: [string, RequestInit?][] = [
      ...documented.map((p): [string] => [p]),
      [
        "/graphql",
        { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' },
      ],
      ["/graphql?query=%7B__typename%7D"],
      ["/graphql", { headers: { accept: "text/html" } }],
      ["/paid/openapi.json"],
      ["/paid/reserves"],
      ["/health"],
      ["/ready"],
      ["/status"],
      ["/metrics"],
      ["/nowhere"],
      ["/api/por", { method: "DELETE" }],
    ];
    expect(documented.length).toBeGreaterThan(40);
    const failed: string[] = [];
    for (const [path, init] of requests) {
      const res = await ask(path, init);
      await res.body?.cancel();
      const origin = res.headers.get("access-control-allow-origin");
      const credentials = res.headers.get("access-control-allow-credentials");
      if (origin !== "*" || credentials !== null)
        failed.push(`${init?.method ?? "GET"} ${path} (${res.status}): origin ${origin}, credentials ${credentials}`);
    }
    expect(failed).toEqual([]);
  });
});
