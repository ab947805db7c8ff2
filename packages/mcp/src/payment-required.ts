/**
 * Reading x402's MCP transport from a tool result, as its spec tells a client to: the
 * PaymentRequired object from structuredContent, else from content[0].text as JSON; the
 * settlement from `_meta["x402/payment-response"]`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";

export const PAYMENT_META_KEY = "x402/payment";
export const PAYMENT_RESPONSE_META_KEY = "x402/payment-response";

function asPaymentRequired(value: unknown): PaymentRequired | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  return typeof v.x402Version === "number" && Array.isArray(v.accepts) ? (value as PaymentRequired) : null;
}

/** The PaymentRequired a tool error carries, or null (a free tool's answer, or a plain refusal). */
export function paymentRequiredOf(result: CallToolResult): PaymentRequired | null {
  if (!result.isError) return null;
  const structured = asPaymentRequired(result.structuredContent);
  if (structured) return structured;
  const first = result.content?.[0];
  if (first?.type !== "text") return null;
  try {
    return asPaymentRequired(JSON.parse(first.text));
  } catch {
    return null;
  }
}

/** The settlement a paid answer carries, or null. */
export function settlementOf(result: CallToolResult): SettleResponse | null {
  const receipt = result._meta?.[PAYMENT_RESPONSE_META_KEY];
  return typeof receipt === "object" && receipt !== null && "success" in receipt ? (receipt as SettleResponse) : null;
}
