/**
 * The paying proxy between an agent and a stand-in upstream MCP server (the SDK's own server and
 * client over its in-memory transport): free answers pass through, a PaymentRequired is paid
 * within the cap and the artifact verified here, the cap refuses what does not fit, a refused
 * payment gives its hold back, and verify_statement and verify_report check their arguments with
 * the upstream's schema (l1Rpc and l1BlockHash with kusd-mcp's) and run here, listed with those
 * inputs and with status and ethereum in their output, which an MCP client accepts.
 */

import { pinnedTrust, type SignedArtifact, STATEMENT_MAX_AGE_SECONDS, signPayload } from "@kusd/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired } from "@x402/core/types";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pendingAnchoring } from "./anchoring.test-support.js";
import type { StatementSources } from "./local-verify.js";
import { PayingProxy, type Purse, proxyServer } from "./paying-proxy.js";
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
    {
      inputSchema: z.strictObject({
        maxAgeSeconds: z.number().int().nullable().optional(),
        rpc: z.url().optional(),
        venue: z.url().optional(),
      }),
    },
    async () => ({ content: [{ type: "text", text: "upstream should not be asked" }], isError: true }),
  );
  server.registerTool(
    "verify_report",
    {
      inputSchema: z.strictObject({ path: z.string().optional(), rpc: z.string(), venue: z.string().optional() }),
      // As the API's: strict, so an MCP client refuses an answer with fields the listing does not name.
      outputSchema: z.strictObject({
        verified: z.boolean(),
        report: z.string().nullable(),
        block: z.strictObject({ number: z.number().int(), hash: z.string() }).nullable(),
        summary: z.string(),
        checks: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
        figures: z.array(z.unknown()),
      }),
    },
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
/** The sources verify_statement last ran kusd-verify with, and the artifact it ran over. */
let verifiedWith: { artifact: unknown; maxAge: number | null; sources: StatementSources } | null = null;
const pendingChecks = [
  { name: "ethereum", ok: false, detail: `PENDING: ${pendingAnchoring.detail}` },
  { name: "figures", ok: true, detail: "48 figures: 38 equal, 0 differs, 10 bracketed" },
];
/** A pending verdict on /api/stats, as verify_report answers it with l1Rpc. */
const pendingReport = {
  verified: false,
  report: "stats",
  block: { number: 1188, hash: `0x${"34".repeat(32)}` },
  summary: "19 figures: 19 equal, 0 differs",
  checks: pendingChecks,
  figures: [],
  status: "pending",
  ethereum: pendingAnchoring,
};
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
    verifyReport: async (args) =>
      args.l1Rpc
        ? { content: [{ type: "text", text: "PENDING" }], structuredContent: pendingReport }
        : { content: [{ type: "text", text: "here" }], structuredContent: { args } },
    statementVerifier: async (artifact, maxAge, sources) => {
      verifiedWith = { artifact, maxAge, sources };
      const verdict = {
        trust: `pinned signer ${signer.address}`,
        attestation_hash: null,
        recovered: signer.address,
        signedAt: 1,
        figures: [],
      };
      return sources.l1
        ? { ...verdict, verified: false, checks: pendingChecks, status: "pending", ethereum: pendingAnchoring }
        : { ...verdict, verified: true, checks: [pendingChecks[1]!], status: "verified" };
    },
  });
  return { proxy, purse, upstream };
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

  it("lists verify_statement and verify_report with l1Rpc and l1BlockHash beside the API's inputs, status and ethereum in their output", async () => {
    const { proxy } = proxyWith(0n);
    const tools = await proxy.listTools();
    for (const name of ["verify_statement", "verify_report"]) {
      const t = tools.find((x) => x.name === name)!;
      expect(Object.keys(t.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["rpc", "l1Rpc", "l1BlockHash"]),
      );
      expect(t.description).toContain("With l1Rpc, trust only Ethereum");
    }
    const report = tools.find((x) => x.name === "verify_report")!;
    expect(Object.keys(report.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(["status", "ethereum"]));
    expect(tools.find((x) => x.name === "stats")!.inputSchema.properties?.l1Rpc).toBeUndefined();
  });

  it("checks l1Rpc and l1BlockHash here and the rest with the upstream's schema, then runs verify_report with them", async () => {
    const { proxy } = proxyWith(0n);
    const args = { path: "/api/stats", rpc: "http://127.0.0.1:8545", l1Rpc: "http://127.0.0.1:8546" };
    const ok = await proxy.callTool("verify_report", args);
    expect(ok.structuredContent).toMatchObject({ verified: false, status: "pending", ethereum: { status: "pending" } });
    for (const [bad, message] of [
      [{ ...args, l1BlockHash: "0x12" }, "l1BlockHash: 0x and 64 hex digits"],
      [
        { path: "/api/stats", rpc: "http://127.0.0.1:8545", l1BlockHash: `0x${"ab".repeat(32)}` },
        "l1BlockHash needs l1Rpc",
      ],
      [{ ...args, l1rpc: "http://127.0.0.1:8546" }, "Invalid arguments for tool verify_report"],
    ] as const) {
      const r = await proxy.callTool("verify_report", bad);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(message);
    }
  });

  it("runs kusd-verify here for verify_statement with the rpc given; with l1Rpc too, pending while only Ethereum waits", async () => {
    const { proxy } = proxyWith(0n);
    const rpc = "http://127.0.0.1:8545";
    const plain = await proxy.callTool("verify_statement", { rpc });
    expect(verifiedWith).toEqual({
      artifact,
      maxAge: STATEMENT_MAX_AGE_SECONDS,
      sources: { rpc, venue: null, l1: null },
    });
    expect(plain.structuredContent).toMatchObject({ verified: true, status: "verified", figures: [] });
    expect((plain.structuredContent as any).ethereum).toBeUndefined();

    const hash = `0x${"CD".repeat(32)}`;
    const r = await proxy.callTool("verify_statement", { rpc, l1Rpc: "http://127.0.0.1:8546", l1BlockHash: hash });
    expect(verifiedWith?.sources).toEqual({
      rpc,
      venue: null,
      l1: { rpc: "http://127.0.0.1:8546", blockHash: hash.toLowerCase() },
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ verified: false, status: "pending", ethereum: pendingAnchoring });
    expect(textOf(r)).toMatch(/FAIL ethereum: PENDING: Base block 1188 .*\nPENDING \(trust: pinned signer/s);

    const without = await proxy.callTool("verify_statement", { l1Rpc: "http://127.0.0.1:8546" });
    expect(without.isError).toBe(true);
    expect(textOf(without)).toContain("l1Rpc needs rpc");
  });

  it("answers a pending verify_report that an MCP client accepts against the schema kusd-mcp lists", async () => {
    const { proxy, upstream } = proxyWith(0n);
    const server = proxyServer(proxy, () => upstream, "1");
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const agent = new Client({ name: "agent", version: "1" });
    await agent.connect(b);
    try {
      await agent.listTools(); // the client keeps each tool's output schema and checks answers against it
      const r = await agent.callTool({
        name: "verify_report",
        arguments: { path: "/api/stats", rpc: "http://127.0.0.1:8545", l1Rpc: "http://127.0.0.1:8546" },
      });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ status: "pending", ethereum: { next: { block: 1200 } } });
    } finally {
      await agent.close();
    }
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
