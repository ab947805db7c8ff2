/** Rule 3 of the hedge ledger (spec 2.5): one bucket per UTC month, records in the window only. */
import type { Fill, FundingPayment, LedgerMonth } from "./hedge-ledger-schema.js";
import { sumLedger } from "./hedge-ledger-sums.js";

/** "YYYY-MM" of a unix-ms time, in UTC. */
export const monthKey = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** Every UTC month from `sinceMs` through `untilMs`, inclusive, empty months included. */
export function monthKeys(sinceMs: number, untilMs: number): string[] {
  const out: string[] = [];
  if (untilMs < sinceMs) return out;
  const start = new Date(sinceMs);
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth();
  const last = monthKey(untilMs);
  for (;;) {
    const key = `${y}-${String(m + 1).padStart(2, "0")}`;
    out.push(key);
    if (key >= last) return out;
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
}

/** Records inside [sinceMs, untilMs]; the venue's own range filter is inclusive at both ends. */
export const inWindow = <T extends { time: number }>(xs: readonly T[], sinceMs: number, untilMs: number): T[] =>
  xs.filter((x) => x.time >= sinceMs && x.time <= untilMs);

/** Rule 3: one bucket per UTC month since `sinceMs`, each record in the month of its own time. */
export function bucketByMonth(
  funding: readonly FundingPayment[],
  fills: readonly Fill[],
  sinceMs: number,
  untilMs: number,
): LedgerMonth[] {
  const f = inWindow(funding, sinceMs, untilMs);
  const x = inWindow(fills, sinceMs, untilMs);
  return monthKeys(sinceMs, untilMs).map((month) => ({
    month,
    ...sumLedger(
      f.filter((r) => monthKey(r.time) === month),
      x.filter((r) => monthKey(r.time) === month),
    ),
  }));
}
