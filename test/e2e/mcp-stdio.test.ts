/**
 * kusd-mcp, the agent-side bin, spawned over stdio by the SDK's own StdioClientTransport, against
 * the devnet stack: the same tools as the API's /mcp, free tools answered from the API, one paid
 * call under the session's --max-spend (the price moves on chain, the artifact is verified on the
 * agent's side) and the next ones refused over the cap with the price and the cap named and
 * nothing paid; verify_statement runs on the agent's side.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { networkFileOf } from "../../devnet/network-document.js";
import { fundedAgent, usdcOf as usdcBalance } from "../helpers/payment.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const PINNED = d.chains.base.historyEndBlock;
const _USDC = getAddress(s.addr("usdc"));
const recipient = getAddress(d.payments.recipient);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const usdcOf = (a: Address) => usdcBalance(s, a);
const textOf = (r: CallToolResult) => r.content.map((c) => (c as { text: string }).text).join("\n");

const agentSide = new Client({ name: "agent", version: "1.0.0" });
let agent: { key: Hex; address: Address };
let stderr = "";

beforeAll(async () => {
  await s.caughtUp();
  agent = await fundedAgent(s, "mcp-stdio", 1);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      "packages/mcp/bin/kusd-mcp.mjs",
      "--api",
      s.indexerUrl,
      "--max-spend",
      "0.3",
      "--operator",
      getAddress(d.signers.operator),
      "--network",
      networkFileOf(inject("deploymentFile")),
    ],
    cwd: ROOT,
    env: { KUSD_MCP_PRIVATE_KEY: agent.key },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  await agentSide.connect(transport);
});
// Closing the client ends the child process (the transport kills it if stdin's end does not).
afterAll(() => agentSide.close());

const call = (name: string, args: Record<string, unknown> = {}) =>
  agentSide.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe("kusd-mcp over stdio", () => {
  it("lists the API's tools", async () => {
    const api = new Client({ name: "direct", version: "1.0.0" });
    await api.connect(new StreamableHTTPClientTransport(new URL(`${s.indexerUrl}/mcp`)));
    const direct = (await api.listTools()).tools.map((t) => t.name).sort();
    await api.close();
    const { tools } = await agentSide.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(direct);
  });

  it("answers a free tool from the API: stats at a pinned block equals GET /api/stats", async () => {
    const r = await call("stats", { block: String(PINNED) });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toEqual(await (await fetch(`${s.indexerUrl}/api/stats?block=${PINNED}`)).json());
  });

  it("verify_report runs on the agent's side: the route read, every figure re-derived from the RPC named", async () => {
    const r = await call("verify_report", { path: `/api/stats?block=${PINNED}`, rpc: s.rpcUrl });
    const v = r.structuredContent as any;
    expect(v).toMatchObject({ verified: true, report: "stats" });
    expect(v.figures.filter((f: any) => f.kind !== "equal")).toEqual([]);
    // Independently: the PSMs' USDC, read straight from the chain at the block, summed here.
    const balances = await Promise.all(
      ["psmMint", "psmRetiredMint", "psmRedeemReserve"].map((k) =>
        s.client.readContract({
          address: getAddress(s.addr("usdc")),
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [getAddress(s.addr(k))],
          blockNumber: BigInt(PINNED),
        }),
      ),
    );
    const usdc = Number(
      formatUnits(
        balances.reduce((a, b) => a + b, 0n),
        6,
      ),
    );
    expect(v.figures.find((f: any) => f.figure === "psmUSDC").rederived).toBeCloseTo(usdc, 6);
    expect(v.block.number).toBe(PINNED);
  });

  it("verify_statement runs on the agent's side against the operator given on its command line", async () => {
    const r = await call("verify_statement");
    expect(r.structuredContent).toMatchObject({ verified: true, recovered: getAddress(d.signers.attestation) });
    expect((r.structuredContent as any).trust).toContain("checked on this machine");
  });

  it("pays one call under the cap: 0.25 USDC moves on chain, the artifact comes back verified with the settlement", async () => {
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const r = await call("buy_reserves_attestation");
    expect(r.isError, `${textOf(r)}\n${stderr}`).toBeFalsy();
    const out = r.structuredContent as any;
    console.log(
      "paid call through kusd-mcp (trimmed):",
      JSON.stringify(
        { verification: { verified: out.verification.verified, trust: out.verification.trust }, payment: out.payment },
        null,
        2,
      ),
    );
    expect(out.verification.verified).toBe(true);
    expect(out.payment.settlement).toMatchObject({ success: true });
    expect(getAddress(out.payment.settlement.payer)).toBe(agent.address);
    expect(r._meta?.["x402/payment-response"]).toEqual(out.payment.settlement);
    const [payer1, recipient1] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    expect(payer0 - payer1).toBe(parseUnits("0.25", 6));
    expect(recipient1 - recipient0).toBe(parseUnits("0.25", 6));
  });

  it("refuses what would take the session over its cap, naming price and cap; nothing moves", async () => {
    const [payer0, recipient0] = await Promise.all([usdcOf(agent.address), usdcOf(recipient)]);
    const again = await call("buy_reserves_attestation");
    expect(again.isError).toBe(true);
    console.log("over the cap:", textOf(again));
    expect(textOf(again)).toContain("costs 0.25 USDC");
    expect(textOf(again)).toContain("spend cap of 0.3 USDC");
    expect(textOf(again)).toContain("0.25 USDC spent");
    const instant = await call("buy_instant_read", {
      chain: "ethereum",
      address: d.chains.ethereum.contracts.DAI!.address,
    });
    expect(instant.isError).toBe(true);
    expect(textOf(instant)).toContain("costs 29 USDC");
    expect(await Promise.all([usdcOf(agent.address), usdcOf(recipient)])).toEqual([payer0, recipient0]);
  });
});
