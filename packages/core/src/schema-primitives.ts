/**
 * The JSON value types every published report shares, as zod schemas: an address, a hash, a
 * timestamp, a reproduction command. Plain JSON types only, so each report's schema is also its
 * OpenAPI 3.1 document (z.toJSONSchema); the TypeScript types are viem's where viem has one.
 */
import type { Address, Hex } from "viem";
import { z } from "zod";

// The regex decides; the refinement only tells TypeScript what the regex proved (viem's
// `0x${string}`) and never adds an issue of its own, so the schema stays plain JSON for
// z.toJSONSchema and a bad value gets the regex's one message.
const isHexText = (_text: string): _text is Hex => true;
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "an address: 0x and 40 hex digits")
  .refine((text): text is Address => isHexText(text));
export const hexSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]*$/, "0x-prefixed hex")
  .refine(isHexText);
export const hash32Schema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, "a 32-byte hash: 0x and 64 hex digits")
  .refine(isHexText);
export const isoTimeSchema = z.iso.datetime().describe("ISO 8601 UTC instant");
export const isoDateSchema = z.iso.date().describe("ISO 8601 date (a UTC day)");
/** Percent text beside a fraction or ratio: two decimals and a percent sign. */
export const pctTextSchema = z
  .string()
  .regex(/^-?\d+\.\d{2}%$/, "two decimals and a percent sign")
  .describe('two decimals and a percent sign ("108.04%")');
/** An integer too large for a JSON number, as a decimal string. */
export const weiSchema = z
  .string()
  .regex(/^-?\d+$/, "a decimal integer string")
  .describe("raw integer amount as a decimal string");
/** Reproduction commands (`cast call ... # field = value`), one per figure they prove. */
export const verifyViaSchema = z
  .array(z.string())
  .describe("commands that reproduce the figures beside them from a public RPC");

/**
 * Reads of a contract that had no code yet at the report's block (deployed later): their figures
 * are null, and they are not failed reads: the report is complete and caches like any other.
 */
export const notDeployedSchema = z
  .array(z.strictObject({ to: addressSchema, read: z.string(), reason: z.literal("not_deployed") }))
  .describe(
    "reads of contracts with no code at this block (eth_getCode is empty: deployed later); null figures, not failures",
  );
export type NotDeployedRead = z.infer<typeof notDeployedSchema>[number];
