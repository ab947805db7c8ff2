/** Raw integer → JSON number in token units, and the decimal-string companions (`…Wei`). */
import { formatUnits } from "viem";
import { decimalsOf } from "../indexed/units.js";

export const toUnits = (raw: bigint, decimals: number): number => Number(formatUnits(raw, decimals));
export const orNull = <T, R>(v: T | null | undefined, f: (v: T) => R): R | null =>
  v === null || v === undefined ? null : f(v);
/** Rounds a USD or token figure for publication (never used in a formula). */
export const round = (x: number | null, digits = 6): number | null =>
  x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits;
export const isoDate = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);
export const isoTime = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * Decimals of a token the indexer records, by the symbol it stores (packages/core/src/indexed/units.ts). The
 * indexer stores only symbols of that table, so the fallback is never reached.
 */
export const tokenDecimals = (symbol: string) => decimalsOf(symbol) ?? 18;
