/**
 * The shape of an x402 v2 exact-EVM payment header (EIP-3009 authorization), checked before the
 * replay guard and the x402 middleware see it: a header that decodes to anything else is the
 * caller's error (400, nothing charged), never a TypeError deep in the middleware.
 */

import { addressSchema, hash32Schema } from "@kusd/core";
import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { Network } from "@x402/core/types";
import { z } from "zod";

const uint = z.union([z.string().regex(/^\d{1,78}$/), z.number().int().nonnegative()]);

export const ExactEvmPaymentSchema = z.object({
  x402Version: z.literal(2),
  accepted: z.object({
    scheme: z.string(),
    // The regex decides; the refinement types what it proved as x402's CAIP-2 `Network`.
    network: z
      .string()
      .regex(/^[a-z0-9-]+:[a-zA-Z0-9-]+$/)
      .refine((_network): _network is Network => true),
    amount: uint.optional(),
    asset: addressSchema.optional(),
    payTo: addressSchema.optional(),
  }),
  payload: z.object({
    signature: z.string().regex(/^0x[0-9a-fA-F]{130,}$/),
    authorization: z.object({
      from: addressSchema,
      to: addressSchema,
      value: uint,
      validAfter: uint,
      validBefore: uint,
      nonce: hash32Schema,
    }),
  }),
});
export type ExactEvmPayment = z.infer<typeof ExactEvmPaymentSchema>;

export type HeaderCheck = { ok: true; payment: ExactEvmPayment } | { ok: false; reason: string };

/** Decodes and checks a PAYMENT-SIGNATURE (or X-PAYMENT) header. */
export function checkPaymentHeader(header: string): HeaderCheck {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    return { ok: false, reason: "the payment header is not base64-encoded JSON" };
  }
  const parsed = ExactEvmPaymentSchema.safeParse(decoded);
  if (parsed.success) return { ok: true, payment: parsed.data };
  const issue = parsed.error.issues[0]!;
  return {
    ok: false,
    reason: `the payment header is not an x402 v2 exact EVM payment: ${issue.path.join(".") || "(root)"} ${issue.message}`,
  };
}
