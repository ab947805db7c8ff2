/**
 * The yield section's pure rules: which months of the hedge ledger lack fills the venue no longer
 * serves. The venue keeps an account's 10,000 most recent fills; the ledger's fillsRetention says
 * whether every fill since the start was served and, when not, the oldest one that was.
 */

export type MonthFills = "kept" | "partly" | "gone";

/** UTC bounds of a "YYYY-MM" month, unix ms: [start, next month's start). */
export function monthBounds(month: string): [number, number] {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) throw new Error(`not a YYYY-MM month: ${month}`);
  const y = Number(m[1]);
  const i = Number(m[2]) - 1;
  return [Date.UTC(y, i, 1), Date.UTC(y, i + 1, 1)];
}

/**
 * Whether the month's fills are all still served: "gone" when the month ended before the oldest
 * fill the venue served, "partly" when that fill falls inside it, else "kept" (and always "kept"
 * when every fill since the start was served, or the retention is unknown).
 */
export function monthFills(
  month: string,
  retention: { complete: boolean | null; horizonISO: string | null },
): MonthFills {
  if (retention.complete !== false || retention.horizonISO === null) return "kept";
  const horizon = Date.parse(retention.horizonISO);
  const [start, end] = monthBounds(month);
  if (end <= horizon) return "gone";
  return start < horizon ? "partly" : "kept";
}
