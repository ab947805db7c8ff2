/**
 * The paying proxy between an agent and a stand-in upstream MCP server (the SDK's own server and
 * client over its in-memory transport): free answers pass through, a PaymentRequired is paid
 * within the cap and the artifact verified here, the cap refuses what does not fit, a refused
 * payment gives its hold back, and verify_statement checks its arguments with the upstream's
 * schema and runs here.
 */

import { pinnedTrust, type SignedArtifact, signPayload } from "@kusd/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired } from "@x402/core/types";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PayingProxy, type Purse } from "./paying-proxy.js";
import { SpendCap } from "./spend-cap.js";

const signer = privateKeyToAccount(generatePrivateKey());
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const market = { network: "eip155:8453", asset: USDC, symbol: "USDC", decimals: 6 } as const;
const required: PaymentRequired = {
  x402Version: 2,
  resource: { url: "mcp://tool/buy", description: "", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:8453",
      amount: "250000",
      asset: USDC,
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      maxTimeoutSeconds: 300,
      extra: {},
    },
  ],
};
let artifact: SignedArtifact;
/** What the stand-in gateway does with the next payment: settle it, or refuse it. */
let gateway: "settle" | "refuse" = "settle";

async function upstreamClient(): Promise<Client> {
  const server = new McpServer({ name: "upstream", version: "1" });
  server.registerTool("stats", { inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text: "{}" }],
    structuredContent: { figure: 1 },
  }));
  server.registerTool(
    "verify_statement",
    { inputSchema: z.strictObject({ maxAgeSeconds: z.number().int().nullable().optional() }) },
    async () => ({ content: [{ type: "text", text: "upstream should not be asked" }], isError: true }),
  );
  server.registerTool(
    "verify_report",
    { inputSchema: z.strictObject({ path: z.string().optional(), rpc: z.string(), venue: z.string().optional() }) },
    async () => ({ content: [{ type: "text", text: "upstream should not be asked" }], isError: true }),
  );
  server.registerTool("buy", { inputSchema: z.object({}), _meta: { "x402/paid": true } }, async (_args, extra) => {
    const payment = extra._meta?.["x402/payment"] as { payer?: string } | undefined;
    if (!payment || gateway === "refuse")
      return {
        isError: true,
        structuredContent: { ...required },
        content: [{ type: "text", text: JSON.stringify(required) }],
      };
    return {
      content: [{ type: "text", text: JSON.stringify(artifact) }],
      structuredContent: { ...artifact },
      _meta: {
        "x402/payment-response": { success: true, transaction: "0xabc", network: "eip155:8453", payer: payment.payer },
      },
    };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "proxy", version: "1" });
  await client.connect(b);
  return client;
}

const paid: string[] = [];
function proxyWith(cap: bigint, withWallet = true) {
  const upstream = upstreamClient();
  const purse: Purse = {
    market,
    cap: new SpendCap(cap, market),
    wallet: withWallet
      ? {
          address: signer.address,
          pay: async (r) => {
            paid.push(r.accepts[0]!.amount);
            return { x402Version: 2, accepted: r.accepts[0]!, payload: {}, payer: signer.address } as never;
          },
        }
      : null,
  };
  const proxy = new PayingProxy({
    upstream: () => upstream,
    purse: async () => purse,
    trust: async () => ({ ...pinnedTrust([signer.address]), describe: `pinned signer ${signer.address}` }),
    latestStatement: async () => artifact,
    keyEnv: "KUSD_MCP_PRIVATE_KEY",
    verifyReport: async (args) => ({ content: [{ type: "text", text: "here" }], structuredContent: { args } }),
  });
  return { proxy, purse };
}
const textOf = (r: CallToolResult) => r.content.map((c) => (c as { text: string }).text).join("\n");

beforeAll(async () => {
  artifact = await signPayload(signer, { kind: "test", timestamp: Math.floor(Date.now() / 1000) });
});

describe("PayingProxy", () => {
  it("passes a free tool's answer through", async () => {
    const { proxy } = proxyWith(0n);
    expect((await proxy.callTool("stats", {})).structuredContent).toEqual({ figure: 1 });
  });

  it("pays within the cap, verifies the artifact here, returns it with the verdict and the settlement", async () => {
    gateway = "settle";
    const { proxy, purse } = proxyWith(300_000n);
    const r = await proxy.callTool("buy", {});
    expect(r.isError, textOf(r)).toBe(false);
    expect(r.structuredContent).toMatchObject({
      artifact,
      verification: { verified: true, recovered: signer.address },
      payment: { price: "0.25 USDC", sessionSpent: "0.25 USDC", sessionCap: "0.3 USDC", sessionLeft: "0.05 USDC" },
    });
    expect(r._meta?.["x402/payment-response"]).toMatchObject({ success: true, transaction: "0xabc" });
    expect(purse.cap.paid).toBe(250_000n);

    const before = paid.length;
    const again = await proxy.callTool("buy", {});
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain("costs 0.25 USDC, over this session's spend cap of 0.3 USDC");
    expect(paid.length).toBe(before); // nothing signed
  });

  it("gives the hold back when the gateway refuses the payment, and passes its PaymentRequired on", async () => {
    gateway = "refuse";
    const { proxy, purse } = proxyWith(250_000n);
    const r = await proxy.callTool("buy", {});
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ x402Version: 2 });
    expect([purse.cap.paid, purse.cap.left]).toEqual([0n, 250_000n]);
  });

  it("without a key, says the price and pays nothing", async () => {
    const { proxy } = proxyWith(1_000_000n, false);
    const r = await proxy.callTool("buy", {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("buy costs 0.25 USDC: kusd-mcp has no key to pay with (set KUSD_MCP_PRIVATE_KEY");
  });

  it("runs verify_statement here, refusing arguments the upstream's schema refuses", async () => {
    const { proxy } = proxyWith(0n);
    const ok = await proxy.callTool("verify_statement", {});
    expect(ok.structuredContent).toMatchObject({ verified: true, trust: `pinned signer ${signer.address}` });
    const bad = await proxy.callTool("verify_statement", { maxAgeSeconds: "soon" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("Invalid arguments for tool verify_statement");
  });

  it("runs verify_report here, refusing arguments the upstream's schema refuses", async () => {
    const { proxy } = proxyWith(0n);
    const ok = await proxy.callTool("verify_report", { path: "/api/stats", rpc: "http://127.0.0.1:8545" });
    expect(ok.structuredContent).toEqual({ args: { path: "/api/stats", rpc: "http://127.0.0.1:8545" } });
    const bad = await proxy.callTool("verify_report", { path: "/api/stats" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("Invalid arguments for tool verify_report");
  });

  it("marks a paid artifact that does not verify as an error, while still returning it", async () => {
    gateway = "settle";
    const { proxy } = proxyWith(250_000n);
    const signed = artifact;
    artifact = { ...signed, signed_payload_canonical: signed.signed_payload_canonical.replace("test", "tampered") };
    try {
      const r = await proxy.callTool("buy", {});
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("NOT VERIFIED");
      expect((r.structuredContent as any).verification.verified).toBe(false);
    } finally {
      artifact = signed;
    }
  });
});
