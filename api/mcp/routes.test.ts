/**
 * The MCP route over real Streamable HTTP (the SDK's own client, its fetch answered by a Hono app
 * in-process) against stand-in routes: the tool list with the routes' schemas, a report, a
 * refused argument, the x402 MCP transport over a stand-in gateway (402 → PaymentRequired, the
 * payment forwarded as PAYMENT-SIGNATURE, the receipt in _meta), verify_statement and resources.
 */

import { selectNetwork } from "@kusd/config/node";
import { buildStats, signPayload } from "@kusd/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import { Hono } from "hono";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, onApiError } from "../http/errors.js";
import { contract } from "../http/route-contract.js";
import { statsContract } from "../reserves/routes.js";
import { standaloneEnv } from "../standalone-app.js";
import { mcpOriginPolicy } from "./origin-guard.js";
import { mcpRoutes } from "./routes.js";

const operator = privateKeyToAccount(generatePrivateKey());
const standaloneNetwork = () => selectNetwork(standaloneEnv());
const stats = buildStats({
  blockNumber: 120n,
  blockTimestamp: 1_778_716_800,
  psmUsdc: { psmRedeemReserve: 1_000_000n, psmMint: 2_000_000n, psmRetiredMint: 0n },
  psmKusd: [0n],
  kusdSupply: 2_500_000_000_000_000_000n,
  verifyVia: ["cast call …"],
  network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` },
  blockHash: `0x${"cd".repeat(32)}`,
});
const challenge = {
  x402Version: 2,
  error: "Payment required",
  resource: { url: "http://local/paid/reserves", description: "attestation", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:8453",
      amount: "250000",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      maxTimeoutSeconds: 300,
      extra: { name: "USD Coin", version: "2" },
    },
  ],
};
const receipt = { success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:8453", payer: operator.address };

let statement: Awaited<ReturnType<typeof signPayload>>;
const seen: { query?: string; payment?: unknown } = {};

// Stand-ins for the routes the tools answer from: the tools only ever see their HTTP answers.
const api = new Hono();
// The stats route checks its query with its real contract, so a refused argument is the real 400.
api.onError(onApiError);
api.get("/api/stats", ...contract(statsContract), (c) => {
  seen.query = new URL(c.req.url).search;
  return c.json(stats);
});
api.get("/api/por/signed", (c) => c.body(JSON.stringify(statement), 200, { "content-type": "application/json" }));
api.get("/paid/openapi.json", (c) =>
  c.json({
    "x-x402": { asset: { symbol: "USDC" } },
    paths: { "/reserves": { get: { "x-payment-info": { price: { amount: "0.250000" } } } } },
  }),
);
api.get("/paid/reserves", (c) => {
  const header = c.req.header("PAYMENT-SIGNATURE");
  if (!header) return c.json({}, 402, { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge as never) });
  seen.payment = decodePaymentSignatureHeader(header);
  if ((seen.payment as { replay?: boolean }).replay)
    return c.json(errorBody("payment_already_used", "this payment authorization was already presented"), 409);
  return c.json(statement, 200, { "PAYMENT-RESPONSE": encodePaymentResponseHeader(receipt as never) });
});
api.route(
  "/",
  mcpRoutes({
    app: api,
    version: "1.0.0",
    statements: { binding: async () => null },
    operator: operator.address,
    paid: true,
    origins: mcpOriginPolicy("http://local"),
    // Re-derivation (verify_statement's rpc) is driven against the devnet in test/e2e/mcp.test.ts.
    network: standaloneNetwork(),
    siteUrl: "http://local",
  }),
);

const client = new Client({ name: "unit", version: "1.0.0" });

beforeAll(async () => {
  statement = await signPayload(operator, { kind: "test", timestamp: 1_778_716_800, status: "PSM_SOLVENT" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://local/mcp"), {
      fetch: async (url, init) => api.fetch(new Request(url, init)),
    }),
  );
});
afterAll(() => client.close());

describe("tools/list", () => {
  it("lists every free report, verify_statement and the paid tools, with the routes' schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "apy",
        "buy_instant_read",
        "buy_reserves_attestation",
        "history",
        "por",
        "psm_status",
        "redemption_plan",
        "registry",
        "risk_status",
        "stats",
        "verify_report",
        "verify_statement",
        "violations",
      ].sort(),
    );
    const byName = new Map(tools.map((t) => [t.name, t]));
    // The route's query schema, as its JSON Schema: the block parameter's own pattern.
    expect((byName.get("por")!.inputSchema.properties as any).block.pattern).toBe("^(latest|\\d{1,15})?$");
    expect(byName.get("stats")!.outputSchema!.required).toContain("kusdOutstandingWei");
    // A paid tool has no output schema: its first answer is the PaymentRequired object.
    expect(byName.get("buy_reserves_attestation")!.outputSchema).toBeUndefined();
    expect(byName.get("buy_reserves_attestation")!.description).toContain("0.250000 USDC");
  });
});

describe("initialize", () => {
  it("advertises no list-changed notifications: a stateless server has no stream to send them on", () => {
    const caps = client.getServerCapabilities();
    expect(caps?.tools?.listChanged).toBe(false);
    expect(caps?.resources?.listChanged).toBe(false);
  });
});

describe("free tools", () => {
  it("answer with the route's JSON, the arguments passed as its query", async () => {
    const r = await client.callTool({ name: "stats", arguments: { block: "120" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(stats);
    expect(seen.query).toBe("?block=120");
  });
  it("refuse an argument the route's schema refuses, in the route's own words", async () => {
    // The stand-in route answers what the real one would: its contract's 400.
    const r = await client.callTool({ name: "stats", arguments: { block: "soon" } });
    expect(r.isError).toBe(true);
    expect((r.content as any)[0].text).toMatch(/^invalid_block: block must be .* \(HTTP 400\)\n\{"block":"soon"\}$/);
  });
});

describe("paid tools (x402 MCP transport)", () => {
  it("unpaid: isError with the PaymentRequired object, the same as JSON text, the tool as the resource", async () => {
    const r = await client.callTool({ name: "buy_reserves_attestation", arguments: {} });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({
      ...challenge,
      resource: { ...challenge.resource, url: "mcp://tool/buy_reserves_attestation" },
    });
    expect(JSON.parse((r.content as any)[0].text)).toEqual(r.structuredContent);
  });
  it("paid: the payload goes to the gateway as PAYMENT-SIGNATURE, the receipt comes back in _meta", async () => {
    const payment = { x402Version: 2, accepted: challenge.accepts[0], payload: { signature: "0x01" } };
    const r = await client.callTool({
      name: "buy_reserves_attestation",
      arguments: {},
      _meta: { "x402/payment": payment },
    });
    expect(seen.payment).toEqual(payment);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(statement);
    expect(r._meta?.["x402/payment-response"]).toEqual(receipt);
  });
  it("a gateway refusal is a tool error with its code, not a PaymentRequired", async () => {
    const r = await client.callTool({
      name: "buy_reserves_attestation",
      arguments: {},
      _meta: { "x402/payment": { x402Version: 2, replay: true } },
    });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect((r.content as any)[0].text).toMatch(/^payment_already_used: .* \(HTTP 409\)$/);
  });
});

describe("verify_statement", () => {
  it("refuses an argument of the wrong type in the API's words, naming it and what was sent", async () => {
    const r = await client.callTool({ name: "verify_statement", arguments: { maxAgeSeconds: "soon" } });
    expect(r.isError).toBe(true);
    expect((r.content as any)[0].text).toMatch(/^invalid_maxAgeSeconds: .*\n\{"maxAgeSeconds":"soon"\}$/);
  });
  it("verifies the latest statement by default, against the operator when no binding is published", async () => {
    const r = await client.callTool({ name: "verify_statement", arguments: { maxAgeSeconds: null } });
    expect(r.structuredContent).toMatchObject({ verified: true, recovered: operator.address });
  });
  it("fails a statement whose signed bytes were altered", async () => {
    const altered = {
      ...statement,
      signed_payload_canonical: statement.signed_payload_canonical.replace("SOLVENT", "INSOLVENT"),
    };
    const r = await client.callTool({
      name: "verify_statement",
      arguments: { artifact: altered, maxAgeSeconds: null },
    });
    expect(r.structuredContent).toMatchObject({ verified: false });
    expect((r.structuredContent as any).checks.find((c: any) => c.name === "hash").ok).toBe(false);
  });
});

describe("verify_report", () => {
  it("on a public site, refuses to read from a loopback or private RPC or venue (before any read)", async () => {
    for (const args of [
      { path: "/api/stats", rpc: "http://127.0.0.1:8545" },
      { path: "/api/stats", rpc: "https://rpc.example", venue: "http://10.0.0.5/info" },
    ]) {
      const r = await client.callTool({ name: "verify_report", arguments: args });
      expect(r.structuredContent).toMatchObject({ verified: false, figures: [] });
      expect((r.structuredContent as any).checks[0].detail).toMatch(/does not read from .*private address/);
    }
  });
  it("refuses a route that is not a report, naming it", async () => {
    const r = await client.callTool({ name: "verify_report", arguments: { path: "/api/nope", rpc: "https://x.test" } });
    expect(r.isError).toBe(true);
    expect((r.content as any)[0].text).toMatch(/^invalid_path: /);
  });
});

describe("resources", () => {
  it("serve the latest statement byte for byte as its route does", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(["kusd://registry/latest", "kusd://statements/latest"]);
    const read = await client.readResource({ uri: "kusd://statements/latest" });
    expect((read.contents[0] as any).text).toBe(JSON.stringify(statement));
  });
});
