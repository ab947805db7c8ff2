/**
 * Argument parsing shared by the GraphQL fields: addresses, ISO times, page sizes and cursors.
 * Bad input is a GraphQL error with extensions.code BAD_USER_INPUT, never a crash.
 */
import { GraphQLError } from "graphql";
import { isAddress } from "viem";

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;

export const badInput = (message: string, details: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", ...details } });

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

/** Opaque keyset cursor: the row's sort key. */
export const encodeCursor = (key: readonly (string | number | bigint)[]) =>
  Buffer.from(JSON.stringify(key.map(String))).toString("base64url");

export function decodeCursor(cursor: string | null | undefined, arity: number): string[] | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(key) && key.length === arity && key.every((k) => typeof k === "string")) return key as string[];
  } catch {
    // fall through
  }
  throw badInput("after is not a cursor this API issued", { argument: "after" });
}

export const isoOf = (unix: bigint | number) => new Date(Number(unix) * 1000).toISOString();
