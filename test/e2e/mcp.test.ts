/**
 * The MCP server at POST /mcp on the devnet stack, driven by the SDK's own Client over Streamable
 * HTTP: the tool list, free tools whose figures equal direct chain reads and the REST routes,
 * bad arguments refused as tool errors, verify_statement, the resources, and the paid tool over
 * x402's MCP transport: unpaid → isError with the PaymentRequired the HTTP gateway asks, paid
 * with a payload in _meta["x402/payment"] → exactly the price moves on chain from payer to
 * recipient, the settlement comes back in _meta["x402/payment-response"], a replay is refused.
 */
import { request } from "node:http";
import { signPayload, trustFromBinding, verifyTrusted } from "@kusd/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, parseEventLogs, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundedAgent, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const PINNED = d.chains.base.historyEndBlock;
const USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(d.payments.recipient);
const operator = getAddress(d.signers.operator);
const rest = async (path: string) => (await fetch(`${s.indexerUrl}${path}`)).json() as Promise<any>;
const usdcOf = (a: Address) => usdcBalance(s, a);
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

const client = new Client({ name: "kusd-e2e", version: "1.0.0" });
const call = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) }) as Promise<CallToolResult>;

beforeAll(async () => {
  await s.caughtUp();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.indexerUrl}/mcp`)));
});
afterAll(() => client.close());

describe("tools/list", () => {
  it("lists every free report, verify_statement and the two paid tools, each paid one with the gateway's price", async () => {
    const { tools } = await client.listTools();
    console.log(
      "MCP tools/list:\n" +
        tools
          .map((t) => `  ${t.name.padEnd(26)} ${t.outputSchema ? "in+out schema" : "in schema    "}  ${t.title}`)
          .join("\n"),
    );
    expect(tools.map((t) => t.name).sort()).toEqual([
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
    ]);
    const paid = (await rest("/paid/openapi.json")) as any;
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("buy_reserves_attestation")!.description).toContain(
      `${paid.paths["/reserves"].get["x-payment-info"].price.amount} USDC`,
    );
    expect(byName.get("buy_instant_read")!.description).toContain(
      `${paid.paths["/instant-read"].post["x-payment-info"].price.amount} USDC`,
    );
    for (const t of tools.filter((t) => !t.name.startsWith("buy_"))) expect(t.outputSchema, t.name).toBeDefined();
  });
});

describe("free tools", () => {
  it("stats at a pinned block: kUSD supply equals a direct totalSupply read, and the answer equals GET /api/stats", async () => {
    const r = await call("stats", { block: String(PINNED) });
    expect(r.isError).toBeFalsy();
    const supply = await s.client.readContract({
      address: s.addr("kUSD"),
      abi: erc20Abi,
      functionName: "totalSupply",
      blockNumber: BigInt(PINNED),
    });
    expect((r.structuredContent as any).kusdSupplyWei).toBe(supply.toString());
    expect(r.structuredContent).toEqual(await rest(`/api/stats?block=${PINNED}`));
  });

  it("por at a pinned block: the PSM's USDC equals a direct balanceOf read", async () => {
    const r = await call("por", { block: String(PINNED) });
    expect(r.isError).toBeFalsy();
    const report = r.structuredContent as any;
    expect(report.blockNumber).toBe(PINNED);
    const held = await s.client.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [getAddress(s.addr("psmMint"))],
      blockNumber: BigInt(PINNED),
    });
    expect(report.reserves.psmMint.usdcHeld).toBe(Number(formatUnits(held, 6)));
    expect(report).toEqual(await rest(`/api/por?block=${PINNED}`));
  });

  it("every other free tool answers within its output schema (the client checks it)", async () => {
    const args: Record<string, Record<string, unknown>> = {
      redemption_plan: { amount: "100", block: String(PINNED) },
      history: { interval: "BLOCKS", step: "50", toBlock: String(PINNED) },
      violations: { limit: "5" },
    };
    for (const name of ["apy", "redemption_plan", "violations", "history", "registry", "psm_status", "risk_status"]) {
      const r = await call(name, args[name]);
      expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
      expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
    }
  });

  it("bad arguments are tool errors in the route's own words (its 4xx message), never a report", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["por", { block: "yesterday" }, "/api/por?block=yesterday"],
      ["redemption_plan", { amount: "0" }, "/api/por/redemption-plan?amount=0"],
      ["stats", { block: String(PINNED + 1_000_000) }, `/api/stats?block=${PINNED + 1_000_000}`],
    ];
    for (const [name, args, path] of cases) {
      const res = await fetch(`${s.indexerUrl}${path}`);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      const r = await call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      // Not the SDK's "MCP error -32602: Input validation error": the route's code and message.
      expect(textOf(r).startsWith(`${error.code}: ${error.message} (HTTP ${res.status})`), textOf(r)).toBe(true);
    }
  });
});

describe("DNS rebinding (the transport specification: servers must validate Origin)", () => {
  /** POST /mcp over real HTTP with the Host and Origin a rebound page would send. */
  const post = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const url = new URL(`${s.indexerUrl}/mcp`);
      const req = request(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });

  it("refuses a foreign Host or Origin with 403 before any tool runs; its own Host without Origin is answered", async () => {
    const rebound = await post({ host: "evil.example.com", origin: "http://evil.example.com" });
    expect(rebound.status).toBe(403);
    expect(rebound.body.error.data.code).toBe("origin_not_allowed");
    const foreignPage = await post({ origin: "http://evil.example.com" });
    expect(foreignPage.status).toBe(403);
    const agent = await post({});
    expect(agent.status).toBe(200);
    expect(agent.body.result.tools.length).toBeGreaterThan(5);
  });
});

describe("verify_statement and resources", () => {
  it("verifies the latest statement: signed by the key the operator's binding names", async () => {
    const r = await call("verify_statement");
    expect(r.structuredContent).toMatchObject({ verified: true, recovered: getAddress(d.signers.attestation) });
  });

  it("refuses an artifact whose signed bytes were altered", async () => {
    const latest = await rest("/api/por/signed");
    const altered = {
      ...latest,
      signed_payload_canonical: latest.signed_payload_canonical.replace(/"status":"\w+"/, '"status":"X"'),
    };
    const r = await call("verify_statement", { artifact: altered });
    expect((r.structuredContent as any).verified).toBe(false);
  });

  it("with rpc: every signed figure re-derived from that RPC, one row each; a raised figure re-signed fails there", async () => {
    const r = await call("verify_statement", { rpc: s.rpcUrl });
    const v = r.structuredContent as any;
    // Statements this test stack signs on demand in the hour are rewrites of it (anchor.test.ts).
    const failed = v.checks.filter((c: any) => !c.ok).map((c: any) => c.name);
    expect(failed.filter((n: string) => n !== "one statement this hour")).toEqual([]);
    expect(v.verified).toBe(failed.length === 0);
    expect(v.figures.length).toBeGreaterThan(30);
    // Without a venue to bracket it in, the recorded equity's figures are shown (bracketed, not checked).
    for (const f of v.figures) expect([f.figure, f.kind]).toEqual([f.figure, f.equal ? "equal" : "bracketed"]);

    const latest = await rest("/api/por/signed");
    const payload = JSON.parse(latest.signed_payload_canonical);
    const raised = { ...payload, psm_usdc_reserve: payload.psm_usdc_reserve + 1 };
    const signed = await signPayload(privateKeyToAccount(d.accounts.attestationSigner!.privateKey), raised);
    const bad = (await call("verify_statement", { artifact: signed, rpc: s.rpcUrl, maxAgeSeconds: null }))
      .structuredContent as any;
    expect(bad.checks.find((c: any) => c.name === "signature").ok).toBe(true);
    expect(bad.verified).toBe(false);
    expect(bad.figures.find((f: any) => f.figure === "psm_usdc_reserve")).toMatchObject({
      published: payload.psm_usdc_reserve + 1,
      rederived: payload.psm_usdc_reserve,
      equal: false,
    });
  });

  it("verify_report: /api/apy read by this server and re-derived from the RPC and venue named; a changed figure differs", async () => {
    const r = await call("verify_report", { path: "/api/apy", rpc: s.rpcUrl, venue: `${d.venue.url}/info` });
    const v = r.structuredContent as any;
    expect(v.report).toBe("apy");
    expect(v.figures.filter((f: any) => f.kind === "differs")).toEqual([]);
    expect(v.verified).toBe(true);
    expect(v.figures.find((f: any) => f.figure === "sources.strategyCostFraction").kind).toBe("declared");
    const apy = await rest("/api/apy");
    const changed = (
      await call("verify_report", { report: { ...apy, expectedAPY: apy.expectedAPY + 0.01 }, rpc: s.rpcUrl })
    ).structuredContent as any;
    expect(changed.verified).toBe(false);
    expect(changed.figures.filter((f: any) => f.kind === "differs").map((f: any) => f.figure)).toEqual(["expectedAPY"]);
    console.log(`[mcp] verify_report /api/apy: ${v.summary}`);
  });

  it("verify_report refuses a route it does not know, as a tool error", async () => {
    const r = await call("verify_report", { path: "/api/unknown", rpc: s.rpcUrl });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^invalid_path/);
  });

  it("the latest-statement resource is GET /api/por/signed byte for byte", async () => {
    const body = await (await fetch(`${s.indexerUrl}/api/por/signed`)).text();
    const read = await client.readResource({ uri: "kusd://statements/latest" });
    expect((read.contents[0] as { text: string }).text).toBe(body);
    const registry = await client.readResource({ uri: "kusd://registry/latest" });
    expect(JSON.parse((registry.contents[0] as { text: string }).text)).toEqual(await rest("/api/por/accounts"));
  });
});

describe("paid tools over x402's MCP transport", () => {
  it("unpaid: isError, the PaymentRequired in structuredContent and as JSON text, asking what the HTTP gateway asks", async () => {
    const r = await call("buy_reserves_attestation");
    expect(r.isError).toBe(true);
    const required = r.structuredContent as unknown as PaymentRequired;
    expect(JSON.parse(textOf(r))).toEqual(required);
    expect(required.x402Version).toBe(2);
    expect(required.resource?.url).toBe("mcp://tool/buy_reserves_attestation");
    const http = await fetch(`${s.indexerUrl}/paid/reserves`);
    expect(http.status).toBe(402);
    const asked = decodePaymentRequiredHeader(http.headers.get("PAYMENT-REQUIRED")!);
    expect(required.accepts).toEqual(asked.accepts);
    expect(required.accepts[0]).toMatchObject({
      scheme: "exact",
      amount: parseUnits("0.25", 6).toString(),
      payTo: recipient,
    });
    expect(getAddress(required.accepts[0]!.asset)).toBe(USDC);
  });

  it("bad input to a paid tool is a tool error before any price: the operator's own token, a malformed address", async () => {
    const own = await call("buy_instant_read", { chain: "base", address: s.addr("kUSD").toLowerCase() });
    expect(own.isError).toBe(true);
    expect(own.structuredContent).toBeUndefined();
    expect(textOf(own)).toMatch(/^operator_owned_address: /);
    const malformed = await call("buy_instant_read", { address: "0x1234" });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toMatch(/address/);
  });

  it("paid: exactly the price moves from payer to recipient on chain, the settlement in _meta, the artifact verifies; a replay is refused", async () => {
    const agent = await fundedAgent(s, "mcp-http", 1);
    const unpaid = await call("buy_reserves_attestation");
    const required = unpaid.structuredContent as unknown as PaymentRequired;
    const price = BigInt(required.accepts[0]!.amount);
    const payer = new x402Client()
      .register("eip155:8453", new ExactEvmScheme(privateKeyToAccount(agent.key)))
      .setSpendControls({
        maxAmountPerPayment: false,
        allowedAssets: [{ network: "eip155:8453", asset: USDC, maxAmountPerPayment: price.toString() }],
      });
    const payment = await payer.createPaymentPayload(required);
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);

    const r = await call("buy_reserves_attestation", {}, { "x402/payment": payment });
    expect(r.isError, textOf(r)).toBeFalsy();
    const settlement = r._meta?.["x402/payment-response"] as { success: boolean; transaction: Hex; payer: string };
    console.log(
      "paid MCP tool call (trimmed):",
      JSON.stringify(
        {
          isError: r.isError ?? false,
          structuredContent: {
            ...r.structuredContent,
            signed_payload_canonical: `${String(r.structuredContent!.signed_payload_canonical).slice(0, 80)}…`,
          },
          _meta: r._meta,
        },
        null,
        2,
      ),
    );
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453" });
    expect(getAddress(settlement.payer)).toBe(agent.address);

    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(parseUnits("0.25", 6));
    expect(recipient1 - recipient0).toBe(price);
    const receipt = await s.client.getTransactionReceipt({ hash: settlement.transaction });
    const [transfer] = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).filter(
      (l) => getAddress(l.address) === USDC,
    );
    expect(transfer!.args).toEqual({ from: agent.address, to: recipient, value: price });

    // Independently of the server: the operator's binding, then the artifact against it.
    const trust = await trustFromBinding(await rest("/api/por/signer-registry"), operator);
    expect((await verifyTrusted(r.structuredContent, trust, { maxAgeSeconds: 7200 })).verified).toBe(true);

    const replay = await call("buy_reserves_attestation", {}, { "x402/payment": payment });
    expect(replay.isError).toBe(true);
    expect(textOf(replay)).toMatch(/^payment_already_used: /);
    expect(await usdcOf(agent.address)).toBe(payer1);
  });
});
