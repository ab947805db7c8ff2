/**
 * The agent-side MCP server: every tool and resource of the API's MCP server, passed through,
 * except that
 *  - a tool answering with an x402 PaymentRequired (x402 specs/transports-v2/mcp.md) is paid
 *    here, from the agent's key, if its price fits in what is left of the session's cap; the call
 *    is repeated with the payment in `_meta["x402/payment"]`, and the artifact it returns is
 *    verified on this machine before it is handed over with the verdict;
 *  - verify_statement runs here, with the trust the agent gave, and verify_report with the RPC and
 *    venue the agent names (its own node, which the hosted server would not read from); both take
 *    `l1Rpc` and `l1BlockHash` besides the API's own inputs (trust only Ethereum: kusd-verify's
 *    `--l1-rpc`), and answer with `status` (pending apart from not verified) and `ethereum`.
 * The key signs one EIP-3009 authorization per purchase and never leaves this process.
 */

import { STATEMENT_MAX_AGE_SECONDS, type Trust } from "@kusd/core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { type Address, getAddress } from "viem";
import { type StatementSources, type StatementVerifier, verdictOf, verdictText } from "./local-verify.js";
import { PAYMENT_META_KEY, paymentRequiredOf, settlementOf } from "./payment-required.js";
import type { SpendCap } from "./spend-cap.js";
import { type L1_TOOLS, splitL1, withL1 } from "./verify-inputs.js";

/** What the API sells in: the gateway's network and asset (its descriptor's `x-x402`). */
export type Market = { network: string; asset: Address; symbol: string; decimals: number };

export type Wallet = {
  address: Address;
  /** An x402 PaymentPayload for the one offer in `required.accepts`. */
  pay(required: PaymentRequired): Promise<PaymentPayload>;
};

/** Set up at the first paid call (it needs the market): the cap in the market's asset, and the wallet if there is a key. */
export type Purse = { market: Market; cap: SpendCap; wallet: Wallet | null };

export type ProxyOptions = {
  upstream: () => Promise<Client>;
  purse: () => Promise<Purse>;
  /** Whom artifacts must be signed by; null when the agent gave no --operator or --signer. */
  trust: (() => Promise<Trust & { describe: string }>) | null;
  /** The latest signed statement as the API publishes it (verify_statement's default). */
  latestStatement: () => Promise<unknown>;
  /** How to tell the agent to give a key (the variable's name). */
  keyEnv: string;
  /** verify_report, run here (its arguments checked with the API's own schema first, l1Rpc and l1BlockHash here). */
  verifyReport: (args: Record<string, unknown>) => Promise<CallToolResult>;
  /** verify_statement when the agent names an RPC: kusd-verify --rpc (and --l1-rpc) here; null without --operator or --signer. */
  statementVerifier: StatementVerifier | null;
};

const text = (t: string) => ({ type: "text" as const, text: t });
const toolError = (t: string): CallToolResult => ({ isError: true, content: [text(t)] });

export class PayingProxy {
  private tools: Promise<Tool[]> | null = null;
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(private readonly o: ProxyOptions) {}

  async listTools(): Promise<Tool[]> {
    const tools = await this.upstreamTools();
    return tools.map((t) => withL1({ ...t, description: `${t.description ?? ""}${this.localNote(t)}` }));
  }

  async callTool(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    if (name === "verify_statement") return this.verifyHere(args ?? {});
    if (name === "verify_report") return this.verifyReportHere(args ?? {});
    const upstream = await this.o.upstream();
    const first = (await upstream.callTool({ name, arguments: args })) as CallToolResult;
    const required = paymentRequiredOf(first);
    return required ? this.buy(upstream, name, args, required) : first;
  }

  private upstreamTools(): Promise<Tool[]> {
    this.tools ??= this.o
      .upstream()
      .then((c) => c.listTools())
      .then((r) => r.tools)
      .catch((e: unknown) => {
        this.tools = null;
        throw e;
      });
    return this.tools;
  }

  private localNote(t: Tool): string {
    if (t.name === "verify_statement")
      return "\n\nThrough kusd-mcp: runs on the agent's machine, trusting what kusd-mcp was started with (--operator or --signer); with rpc, the figures re-derived there from the RPC and venue given (its own node too), with the network document kusd-mcp was started with (--network). With l1Rpc, trust only Ethereum: the statement's block proven from the output roots Base posts on Ethereum, every read executed over state proven against it; status says pending when no posted root covers the block yet.";
    if (t.name === "verify_report")
      return "\n\nThrough kusd-mcp: runs on the agent's machine, reading the RPC and venue given (its own node too), with the network document kusd-mcp was started with (--network). With l1Rpc, trust only Ethereum: the report's block proven from the output roots Base posts on Ethereum, every read at it executed over state proven against it; status says pending when no posted root covers the block yet.";
    if (t._meta?.["x402/paid"])
      return "\n\nThrough kusd-mcp: paid from the agent's key on the agent's machine, only within the session's --max-spend; the artifact is verified here and returned with the verdict.";
    return "";
  }

  private async buy(
    upstream: Client,
    name: string,
    args: Record<string, unknown> | undefined,
    required: PaymentRequired,
  ): Promise<CallToolResult> {
    const { market, cap, wallet } = await this.o.purse();
    const offer = required.accepts.find(
      (a) => a.network === market.network && getAddress(a.asset) === getAddress(market.asset),
    );
    if (!offer)
      return toolError(
        `${name}: no offer in ${market.symbol} (${market.asset}) on ${market.network}: ${JSON.stringify(required.accepts)}; nothing was paid`,
      );
    const price = BigInt(offer.amount);
    if (!wallet)
      return toolError(
        `${name} costs ${cap.format(price)}: kusd-mcp has no key to pay with (set ${this.o.keyEnv} in its environment, and --max-spend); nothing was paid`,
      );
    if (!this.o.trust)
      return toolError(`${name}: nothing to verify the artifact against (start kusd-mcp with --operator or --signer)`);
    const held = cap.hold(price, name);
    if (!held.ok) return toolError(held.reason);
    let payment: PaymentPayload;
    try {
      payment = await wallet.pay({ ...required, accepts: [offer] });
    } catch (e) {
      held.hold.release();
      return toolError(`${name}: the payment could not be signed: ${(e as Error).message}; nothing was paid`);
    }
    let paid: CallToolResult;
    try {
      paid = (await upstream.callTool({
        name,
        arguments: args,
        _meta: { [PAYMENT_META_KEY]: payment },
      })) as CallToolResult;
    } catch (e) {
      // The signed payment left this process and no answer came back: it may have settled, so it stays counted.
      held.hold.spend();
      return toolError(
        `${name}: the paid call failed (${(e as Error).message}); the payment may have been settled and is counted against the cap`,
      );
    }
    const settlement = settlementOf(paid);
    if (paid.isError || !settlement?.success) {
      // Refused (a PaymentRequired with its reason, or the gateway's error): the gateway settles only what it delivers.
      held.hold.release();
      return paid;
    }
    held.hold.spend();
    const artifact = paid.structuredContent ?? null;
    const verdict = await verdictOf(artifact, await this.o.trust(), STATEMENT_MAX_AGE_SECONDS);
    const spent = `paid ${cap.format(price)} from ${wallet.address} in ${settlement.transaction}; this session: ${cap.format(cap.paid)} of ${cap.format(cap.cap)} spent`;
    const first = paid.content?.[0];
    return {
      // Paid for, but not to be relied on: said as loudly as MCP can.
      isError: !verdict.verified,
      content: [...(first?.type === "text" ? [first] : []), text(`${verdictText(verdict)}\n${spent}`)],
      structuredContent: {
        artifact,
        verification: verdict,
        payment: {
          price: cap.format(price),
          settlement,
          sessionSpent: cap.format(cap.paid),
          sessionCap: cap.format(cap.cap),
          sessionLeft: cap.format(cap.left),
        },
      },
      ...(paid._meta && { _meta: paid._meta }),
    };
  }

  /**
   * The arguments checked as the API checks them (its own input schema for the tool: the same
   * rules, one source), l1Rpc and l1BlockHash with kusd-mcp's schema; an error says which.
   */
  private async checkedArgs(
    tool: (typeof L1_TOOLS)[number],
    args: Record<string, unknown>,
  ): Promise<{ ok: false; error: CallToolResult } | { ok: true; l1: StatementSources["l1"] }> {
    const split = splitL1(args);
    if (!split.ok) return { ok: false, error: toolError(`Invalid arguments for tool ${tool}: ${split.error}`) };
    const schema = (await this.upstreamTools()).find((t) => t.name === tool)?.inputSchema;
    const checked = schema ? this.validator.getValidator(schema)(split.upstream) : { valid: true as const };
    if (!checked.valid)
      return { ok: false, error: toolError(`Invalid arguments for tool ${tool}: ${checked.errorMessage}`) };
    return { ok: true, l1: split.l1 };
  }

  private async verifyReportHere(args: Record<string, unknown>): Promise<CallToolResult> {
    const checked = await this.checkedArgs("verify_report", args);
    if (!checked.ok) return checked.error;
    return this.o.verifyReport(args);
  }

  private async verifyHere(args: Record<string, unknown>): Promise<CallToolResult> {
    const checked = await this.checkedArgs("verify_statement", args);
    if (!checked.ok) return checked.error;
    if (!this.o.trust)
      return toolError(
        "verify_statement runs on this machine: start kusd-mcp with --operator <address> (or --signer <address>) to say whose signatures to accept",
      );
    const artifact = args.artifact ?? (await this.o.latestStatement());
    const maxAge = args.maxAgeSeconds === undefined ? STATEMENT_MAX_AGE_SECONDS : (args.maxAgeSeconds as number | null);
    const rpc = typeof args.rpc === "string" ? args.rpc : null;
    if (rpc !== null && !this.o.statementVerifier)
      return toolError("verify_statement: nothing here re-derives the figures from rpc (kusd-mcp's statementVerifier)");
    const verdict =
      rpc !== null && this.o.statementVerifier
        ? await this.o.statementVerifier(artifact, maxAge, {
            rpc,
            venue: typeof args.venue === "string" ? args.venue : null,
            l1: checked.l1,
          })
        : await verdictOf(artifact, await this.o.trust(), maxAge);
    const status = verdict.status ?? (verdict.verified ? "verified" : "not verified");
    return { content: [text(verdictText(verdict))], structuredContent: { ...verdict, status } };
  }
}

/** The MCP server around a proxy: tools and resources, resources read from the API's server as they are. */
export function proxyServer(proxy: PayingProxy, upstream: () => Promise<Client>, version: string): Server {
  const server = new Server(
    { name: "kusd-mcp", version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "kUSD proof of reserves. Free tools answer from the kUSD API; paid tools are paid here from the agent's key under this session's spend cap, and their artifacts verified here.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await proxy.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (r) => {
    try {
      return await proxy.callTool(r.params.name, r.params.arguments);
    } catch (e) {
      return toolError(`${r.params.name}: ${(e as Error).message}`);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (r) => (await upstream()).listResources(r.params));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (r) =>
    (await upstream()).listResourceTemplates(r.params),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (r) => (await upstream()).readResource(r.params));
  return server;
}
