/**
 * The paid gateway's contracts (spec 2.1/2.2): the instant-read request and the two artifacts it
 * sells. One source for the request's validation, the gateway descriptor's schemas, the x402
 * Bazaar discovery extension in every 402, /.well-known/x402 and llms.txt. Plain JSON types only,
 * so z.toJSONSchema gives each one's JSON Schema. Examples are checked against their schemas by
 * the unit tests, so they cannot drift from them.
 */
import { z } from "zod";
import { addressSchema, hash32Schema, weiSchema } from "../schema-primitives.js";
import { PublishedStatementSchema, signedArtifactShape } from "./published-schema.js";

/** The chains an instant read reads. */
export const INSTANT_READ_CHAINS = ["base", "ethereum"] as const;
export type InstantReadChain = (typeof INSTANT_READ_CHAINS)[number];

export const InstantReadRequestSchema = z
  .strictObject({
    chain: z.enum(INSTANT_READ_CHAINS).default("base").describe("the chain to read (default base)"),
    address: addressSchema.describe(
      "the ERC-20 contract: 0x and 40 hex digits, all lower case or EIP-55 checksummed; not an operator-owned address",
    ),
  })
  .describe("POST /instant-read's JSON body");

/** GET /reserves: the latest hourly statement with the signed copies a buyer needs beside the signed bytes. */
export const PaidReservesSchema = PublishedStatementSchema.extend({
  signer_binding: z
    .string()
    .optional()
    .describe("where the binding was published when the statement was signed (a signed field)"),
  signer_binding_hash: hash32Schema
    .nullable()
    .optional()
    .describe("the binding's attestation_hash (a signed field): served by any host at /api/por/signer-registry/{hash}"),
}).describe("the hourly proof-of-reserves statement, EIP-191 signed");

/** POST /instant-read: a token's symbol, decimals and total supply, signed with the block pinned inside the signed bytes. */
export const TokenReadSchema = z
  .strictObject({
    ok: z.literal(true),
    kind: z.literal("erc20-total-supply"),
    chain: z.enum(INSTANT_READ_CHAINS),
    token: z.strictObject({
      symbol: z.string(),
      decimals: z.number().int().nonnegative(),
      totalSupplyGrouped: z.string().describe("total supply in token units, integer part grouped by thousands"),
    }),
    ...signedArtifactShape,
  })
  .describe("a signed ERC-20 read; the block number, hash and raw supply are inside signed_payload_canonical");

/** What an instant read signs (its signed_payload_canonical): the token's figures and the block they were read at. */
export const InstantReadPayloadSchema = z
  .strictObject({
    kind: z.literal("erc20-total-supply"),
    chain: z.enum(INSTANT_READ_CHAINS),
    chain_id: z.int().describe("the chain's EIP-155 id: an RPC that re-reads the token must serve this chain"),
    address: addressSchema.describe("the ERC-20 contract read"),
    symbol: z.string(),
    decimals: z.int().nonnegative(),
    total_supply_raw: weiSchema.describe("totalSupply() at the block, raw"),
    total_supply_grouped: z.string().describe("total supply in token units, integer part grouped by thousands"),
    block_number: z.int().nonnegative(),
    block_hash: hash32Schema.describe(
      "the block read, by its hash (EIP-1898): its number alone could name another branch's block",
    ),
    block_timestamp: z.int().describe("the block's time, unix seconds"),
    timestamp: z.int().describe("when the read was signed, unix seconds"),
  })
  .describe("signed_payload_canonical of POST /instant-read: every figure, and the block that pins them");
export type InstantReadPayload = z.infer<typeof InstantReadPayloadSchema>;

export type PaidReserves = z.infer<typeof PaidReservesSchema>;
export type TokenRead = z.infer<typeof TokenReadSchema>;

const EXAMPLE_SIGNATURE = `0x${"5a".repeat(64)}1b` as const;

/** What a buyer sends and gets, for discovery (Bazaar `info` examples): shapes, not live figures. */
export const PAID_EXAMPLES = {
  instantReadRequest: { chain: "base", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  reserves: {
    attestation_hash: `0x${"ab".repeat(32)}`,
    signature: EXAMPLE_SIGNATURE,
    signer: "0x1111111111111111111111111111111111111111",
    status: "PSM_SOLVENT",
    schema_version: 4,
    aggregate_solvency_ratio: 1.0804,
    signer_binding: "https://kusd.example/api/por/signer-registry",
    signer_binding_hash: `0x${"cd".repeat(32)}`,
    signed_payload_canonical:
      '{"aggregate_solvency_ratio":1.0804,"schema_version":4,"status":"PSM_SOLVENT","timestamp":1779000000}',
  },
  tokenRead: {
    ok: true,
    kind: "erc20-total-supply",
    chain: "base",
    token: { symbol: "USDC", decimals: 6, totalSupplyGrouped: "3,912,664,017.25" },
    attestation_hash: `0x${"ef".repeat(32)}`,
    signature: EXAMPLE_SIGNATURE,
    signer: "0x1111111111111111111111111111111111111111",
    signed_payload_canonical:
      '{"block_number":30000000,"chain":"base","kind":"erc20-total-supply","timestamp":1779000000}',
  },
} as const satisfies {
  instantReadRequest: z.input<typeof InstantReadRequestSchema>;
  reserves: PaidReserves;
  tokenRead: TokenRead;
};
