/**
 * An amount that says what it is: the raw integer, its unit and decimals, and the exact decimal
 * text. Every aggregate answers in this shape, so a bucket that holds USDC and kUSD figures
 * side by side can never be summed or charted as if they were one unit.
 */
import { formatUnits } from "viem";

export type AmountUnit = { unit: string; decimals: number };
export type LabelledAmount = AmountUnit & { raw: bigint; formatted: string };
/** Count, sum, min and max of one amount column over a group, each labelled. */
export type AmountStats = { count: number; sum: LabelledAmount; min: LabelledAmount; max: LabelledAmount };

export const amountOf = (raw: bigint, u: AmountUnit): LabelledAmount => ({
  raw,
  unit: u.unit,
  decimals: u.decimals,
  formatted: formatUnits(raw, u.decimals),
});

/** SQL aggregates as the drivers hand them back: decimal strings (or numbers for counts), null over no rows. */
export type RawStats = {
  count: string | number | bigint | null;
  sum: string | null;
  min: string | null;
  max: string | null;
};

/** The labelled stats of a group, or null when no row of the group carried the amount. */
export function amountStats(u: AmountUnit, s: RawStats): AmountStats | null {
  const count = Number(s.count ?? 0);
  if (count === 0 || s.sum === null || s.min === null || s.max === null) return null;
  return { count, sum: amountOf(BigInt(s.sum), u), min: amountOf(BigInt(s.min), u), max: amountOf(BigInt(s.max), u) };
}
