/**
 * The published shape of a registry violation (spec 2.6 rule 2) and of a page of them
 * (`/api/por/accounts/violations`): the schema is the type the route returns, the monitor's
 * check of what it reads, and the OpenAPI entry.
 */
import { getAddress, type Hex } from "viem";
import { z } from "zod";
import { isoTime, tokenDecimals, toUnits } from "../reserves/units.js";
import { addressSchema, hash32Schema, isoTimeSchema, weiSchema } from "../schema-primitives.js";

/** A violation as indexed (the `registry_violation` row). */
export type ViolationRow = {
  id: string;
  token: Hex;
  tokenSymbol: string;
  from: Hex;
  to: Hex;
  amount: bigint;
  registryVersion: number;
  txHash: Hex;
  blockNumber: bigint;
  timestamp: bigint;
  logIndex: number;
};

export const ViolationSchema = z.strictObject({
  id: z.string(),
  cursor: z
    .string()
    .regex(/^\d+:\d+$/)
    .describe("<block>:<logIndex>; `after=<cursor>` resumes a listing right after this violation"),
  token: addressSchema,
  tokenSymbol: z.string(),
  amount: z.number().describe("amount in whole tokens"),
  amountRaw: weiSchema,
  decimals: z.number().int(),
  from: addressSchema.describe("the listed account the funds left"),
  to: addressSchema.describe("the unlisted receiver"),
  txHash: hash32Schema,
  blockNumber: z.number().int(),
  logIndex: z.number().int(),
  timestamp: isoTimeSchema,
  registryVersion: z.number().int().describe("the registry version in force at the transfer's block time"),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const indexedHeadSchema = z
  .strictObject({ blockNumber: z.number().int(), timestamp: isoTimeSchema })
  .describe("the newest block the indexer has processed");

export const ViolationPageSchema = z.strictObject({
  indexedHead: indexedHeadSchema,
  rule: z.string(),
  violations: z.array(ViolationSchema),
  next: z.string().nullable().describe("cursor of the next page, null on the last page"),
});
export type ViolationPage = z.infer<typeof ViolationPageSchema>;

export function violationView(v: ViolationRow): Violation {
  const decimals = tokenDecimals(v.tokenSymbol);
  return {
    id: v.id,
    cursor: `${v.blockNumber}:${v.logIndex}`,
    token: getAddress(v.token),
    tokenSymbol: v.tokenSymbol,
    amount: toUnits(v.amount, decimals),
    amountRaw: v.amount.toString(),
    decimals,
    from: getAddress(v.from),
    to: getAddress(v.to),
    txHash: v.txHash,
    blockNumber: Number(v.blockNumber),
    logIndex: v.logIndex,
    timestamp: isoTime(Number(v.timestamp)),
    registryVersion: v.registryVersion,
  };
}
