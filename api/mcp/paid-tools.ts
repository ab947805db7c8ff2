/**
 * The two paid artifacts as MCP tools, over x402's MCP transport (x402 specs/transports-v2/mcp.md):
 * an unpaid call is a tool error carrying the PaymentRequired object (structuredContent, and as
 * JSON in content[0].text); the retry carries the PaymentPayload in `_meta["x402/payment"]`; a
 * paid answer carries the settlement in `_meta["x402/payment-response"]`.
 *
 * Each tool is an adapter over the HTTP gateway's own route, called in-process with the payment
 * as its PAYMENT-SIGNATURE header: the free checks before any price, the replay guard, x402's
 * verify, our verifier before the charge, and settling only a delivered answer all stay the
 * gateway's, in one place. What the gateway refuses (4xx, 503) is a tool error; nothing is charged.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { z } from "zod";
import { PAID_OPERATIONS, type PaidOperation } from "../paid/operations.js";
import { checkedByTheRoute, describeRefusal, type RouteCall, toolError } from "./tool-results.js";

/** The `_meta` keys of x402's MCP transport. */
export const PAYMENT_META_KEY = "x402/payment";
export const PAYMENT_RESPONSE_META_KEY = "x402/payment-response";

export type PaidTool = {
  name: string;
  title: string;
  /** The gateway's operation: its method, path, request contract and summary. */
  operation: PaidOperation;
  /** What an agent should know beside the operation's summary. */
  notes: string;
};

export const PAID_TOOLS: readonly PaidTool[] = [
  {
    name: "buy_reserves_attestation",
    title: "Buy the signed reserves attestation",
    operation: operation("/reserves"),
    notes:
      "The latest hourly proof-of-reserves statement (same artifact as GET /paid/reserves). Verify it: SHA-256 of signed_payload_canonical is attestation_hash, its EIP-191 signer is the one the signer binding (/api/por/signer-registry) names for the signed time.",
  },
  {
    name: "buy_instant_read",
    title: "Buy a signed ERC-20 total-supply read",
    operation: operation("/instant-read"),
    notes:
      "Read on Base or Ethereum with the block inside the signed bytes (same artifact as POST /paid/instant-read). The operator's own accounts and contracts, and anything that is not an ERC-20, are refused before any price is asked.",
  },
];

function operation(path: PaidOperation["path"]): PaidOperation {
  return PAID_OPERATIONS.find((o) => o.path === path)!;
}

/** A tool's arguments: the operation's request contract (the instant read's JSON body), none for a GET. */
const inputOf = (t: PaidTool) => (t.operation.request?.schema as z.ZodObject | undefined) ?? z.strictObject({});

/** The x402 resource a tool sells, named as the transport spec names tools. */
export const toolResourceUrl = (name: string) => `mcp://tool/${name}`;

/** The transport's payment-required result: isError, the object as structured content and as JSON text. */
export function paymentRequiredResult(required: PaymentRequired): CallToolResult {
  return {
    isError: true,
    structuredContent: { ...required },
    content: [{ type: "text", text: JSON.stringify(required) }],
  };
}

/** The gateway's HTTP answer as the paid tool's result. */
export async function paidResultOf(res: Response, toolName: string): Promise<CallToolResult> {
  const text = await res.text();
  const challenge = res.headers.get("PAYMENT-REQUIRED");
  if (res.status === 402 && challenge) {
    const required = decodePaymentRequiredHeader(challenge);
    return paymentRequiredResult({ ...required, resource: { ...required.resource, url: toolResourceUrl(toolName) } });
  }
  if (res.status !== 200) return toolError(describeRefusal(res.status, text));
  const receipt = res.headers.get("PAYMENT-RESPONSE");
  return {
    content: [{ type: "text", text }],
    structuredContent: JSON.parse(text) as Record<string, unknown>,
    ...(receipt && { _meta: { [PAYMENT_RESPONSE_META_KEY]: decodePaymentResponseHeader(receipt) } }),
  };
}

/** The gateway's route of a tool (the gateway is mounted at /paid). */
export const gatewayPath = (t: PaidTool) => `/paid${t.operation.path}`;

/** The gateway's request for a call: the tool's arguments as the body, the payment (if any) as PAYMENT-SIGNATURE. */
export function gatewayRequest(tool: PaidTool, args: Record<string, unknown>, payment: unknown): RequestInit {
  const headers: Record<string, string> = {};
  const method = tool.operation.method;
  if (method === "POST") headers["content-type"] = "application/json";
  // Whatever was sent goes to the gateway as sent: its header check refuses a malformed payment
  // with its reason (400, nothing charged), the same words an HTTP client gets.
  if (payment !== undefined) headers["PAYMENT-SIGNATURE"] = encodePaymentSignatureHeader(payment as PaymentPayload);
  return { method, headers, ...(method === "POST" && { body: JSON.stringify(args) }) };
}

/** A paid operation's price as the gateway's descriptor states it ("0.250000 USDC"), or null. */
export function priceOf(descriptor: unknown, tool: PaidTool): string | null {
  const d = descriptor as {
    paths?: Record<string, Record<string, { "x-payment-info"?: { price?: { amount?: string } } }>>;
    "x-x402"?: { asset?: { symbol?: string } };
  };
  const op = tool.operation;
  const amount = d?.paths?.[op.path]?.[op.method.toLowerCase()]?.["x-payment-info"]?.price?.amount;
  return amount ? `${amount} ${d["x-x402"]?.asset?.symbol ?? "USD"}` : null;
}

export function registerPaidTools(server: McpServer, call: RouteCall, descriptor: unknown) {
  for (const t of PAID_TOOLS) {
    const price = priceOf(descriptor, t);
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: `${t.operation.summary}. ${t.notes}\n\nPaid per call${price ? `: ${price}` : ""}, over x402 (MCP transport): a call without _meta["x402/payment"] returns isError with the PaymentRequired object; retry with the signed PaymentPayload in _meta["x402/payment"]. The settlement comes back in _meta["x402/payment-response"]. An artifact that fails our own verification is never charged.`,
        inputSchema: checkedByTheRoute(inputOf(t)),
        annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
        _meta: { "x402/paid": true, ...(price && { "x402/price": price }) },
      },
      async (args: Record<string, unknown>, extra) =>
        paidResultOf(await call(gatewayPath(t), gatewayRequest(t, args, extra._meta?.[PAYMENT_META_KEY])), t.name),
    );
  }
}
