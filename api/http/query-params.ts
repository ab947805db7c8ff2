/**
 * The query parameters the free endpoints share, each a zod schema with the message a caller
 * sees when a value is refused. Values arrive as strings; the schemas turn them into what the
 * handlers use.
 */
import { z } from "zod";

const MAX_BLOCK_DIGITS = 15;

/** `?block=N`, `latest` or absent (the indexed head); range checks need the head and live in the handler. */
export const blockParam = z
  .string()
  .regex(
    new RegExp(`^(latest|\\d{1,${MAX_BLOCK_DIGITS}})?$`),
    "block must be a non-negative decimal integer or 'latest'",
  )
  .optional()
  .describe("Block the report is pinned to: a decimal block number or 'latest' (default: the indexed head)");

/** The refusals every report pinned by `blockParam` documents. */
export const blockParamErrors = {
  422: "the block is past the indexed head",
  503: "the indexer has not reached the protocol yet",
} as const;

/** A block bound of a range (`fromBlock`, `toBlock`): absent means the handler's default. */
export const blockBound = (name: string) =>
  z
    .string()
    .regex(new RegExp(`^(\\d{1,${MAX_BLOCK_DIGITS}})?$`), `${name} must be a non-negative integer block number`)
    .transform((s) => (s === "" ? undefined : BigInt(s)))
    .optional();

/** A page size from 1 to `max`, `fallback` when absent. */
export const limitParam = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,4}$/, `limit must be an integer from 1 to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `limit must be an integer from 1 to ${max}`)
        .max(max, `limit must be an integer from 1 to ${max}`),
    )
    .optional()
    .transform((n) => n ?? fallback)
    .describe(`Page size, 1 to ${max} (default ${fallback})`);

/** A kUSD amount as a decimal string with at most 18 decimals (kept a string: parseUnits is exact). */
export const kusdAmount = (message: string) => z.string({ error: message }).regex(/^\d{1,15}(\.\d{1,18})?$/, message);
