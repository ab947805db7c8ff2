/**
 * The two operations the gateway sells, as data: what each is called, what it takes and gives
 * (the zod contracts of packages/core/src/attestation/paid-schema.ts) and which price it has. The x402 route
 * configuration, the descriptor (openapi.ts), the Bazaar extension of every 402 (bazaar.ts),
 * /.well-known/x402 and llms.txt are all built from this list.
 */

import { InstantReadRequestSchema, PAID_EXAMPLES, PaidReservesSchema, TokenReadSchema } from "@kusd/core";
import { z } from "zod";

export type PaidOperation = {
  method: "GET" | "POST";
  /** Below the gateway's base path. */
  path: "/reserves" | "/instant-read";
  operationId: string;
  /** One line: the descriptor's summary and llms.txt's. */
  summary: string;
  /** The x402 resource description (what the 402 says is for sale). */
  description: string;
  price: "reserves" | "instantRead";
  /** The JSON body, for a POST. */
  request?: { schema: z.ZodType; example: unknown };
  response: { schema: z.ZodType; example: unknown };
};

export const PAID_OPERATIONS: readonly PaidOperation[] = [
  {
    method: "GET",
    path: "/reserves",
    operationId: "getReserves",
    summary: "The hourly proof-of-reserves attestation, EIP-191 signed",
    description: "kUSD hourly proof-of-reserves attestation (EIP-191 signed)",
    price: "reserves",
    response: { schema: PaidReservesSchema, example: PAID_EXAMPLES.reserves },
  },
  {
    method: "POST",
    path: "/instant-read",
    operationId: "postInstantRead",
    summary: "Signed read of an ERC-20's symbol, decimals and total supply at a pinned block",
    description: "EIP-191 signed ERC-20 read at a pinned block",
    price: "instantRead",
    request: { schema: InstantReadRequestSchema, example: PAID_EXAMPLES.instantReadRequest },
    response: { schema: TokenReadSchema, example: PAID_EXAMPLES.tokenRead },
  },
];

/**
 * A contract's JSON Schema (draft 2020-12) without its `$schema` line, so it can sit inside
 * another document (a descriptor component, the Bazaar extension's schema). `input` describes
 * what a client may send (defaults make fields optional), `output` what the server answers.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Record<string, unknown>;
  return rest;
}
