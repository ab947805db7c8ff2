/**
 * The query parameters the free endpoints share, each a zod schema with the message a caller
 * sees when a value is refused. Values arrive as strings; the schemas turn them into what the
 * handlers use.
 */
import toRegexRange from "to-regex-range";
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

/**
 * The decimal integers from `min` to `max`, without leading zeros, as one anchored pattern: the
 * parameter's validation and its documented `pattern` at once (1 to 500 is
 * `^(?:[1-9]|[1-9][0-9]|[1-4][0-9]{2}|500)$`), so the document cannot allow what the server refuses.
 */
export const integerRange = (min: number, max: number) => new RegExp(`^${toRegexRange(min, max)}$`);

/** A page size from 1 to `max`, `fallback` when absent. */
export const limitParam = (max: number, fallback: number) =>
  z
    .string()
    .regex(integerRange(1, max), `limit must be an integer from 1 to ${max}`)
    .transform(Number)
    .optional()
    .transform((n) => n ?? fallback)
    .describe(`Page size, 1 to ${max} (default ${fallback})`);

/**
 * A kUSD amount as a decimal string with at most 18 decimals (kept a string: parseUnits is exact);
 * `positive`: not zero (a non-zero digit somewhere), in the same pattern the document shows.
 */
export const kusdAmount = (message: string, o: { positive?: boolean } = {}) =>
  z
    .string({ error: message })
    .regex(new RegExp(`^${o.positive ? "(?=.*[1-9])" : ""}\\d{1,15}(\\.\\d{1,18})?$`), message);
