/**
 * Argument parsing shared by the GraphQL fields: addresses, ISO times and page sizes (the entity
 * connections' own, with cursors, are in query/).
 * Bad input is a GraphQL error with extensions.code BAD_USER_INPUT, never a crash.
 */
import { createGraphQLError } from "graphql-yoga";
import { isAddress } from "viem";
import { DEFAULT_PAGE, MAX_PAGE } from "./query/page.js";

export { DEFAULT_PAGE, MAX_PAGE };

/** yoga's error class: an error of graphql's other build (ESM beside CJS under vitest) would be masked as internal. */
export const badInput = (message: string, details: Record<string, unknown> = {}) =>
  createGraphQLError(message, { extensions: { code: "BAD_USER_INPUT", ...details } });

export function address(value: string | null | undefined, name: string): `0x${string}` | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isAddress(value, { strict: false }))
    throw badInput(`${name} is not an address (0x and 40 hex characters)`, { argument: name });
  return value.toLowerCase() as `0x${string}`;
}

export function unixTime(value: string | null | undefined, name: string): bigint | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw badInput(`${name} is not an ISO 8601 time`, { argument: name });
  return BigInt(Math.floor(ms / 1000));
}

export function pageSize(first: number | null | undefined): number {
  const n = first ?? DEFAULT_PAGE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
    throw badInput(`first must be between 1 and ${MAX_PAGE}`, { argument: "first", max: MAX_PAGE });
  return n;
}

export const isoOf = (unix: bigint | number) => new Date(Number(unix) * 1000).toISOString();
