/**
 * The venue keeps only an account's 10,000 most recent fills (Hyperliquid's info endpoint
 * documentation): a fill older than those is gone for everyone, the service included. Whether a
 * range may lack fills follows from the count alone: the kept fills since `start` number fewer than
 * 10,000 only when none since `start` was dropped (dropping takes the oldest first, and every
 * fill kept after a dropped one counts).
 */

export const FILLS_KEPT = 10_000;

export type FillRetention = {
  /** Fills the venue still serves from the range's start to now. */
  kept: number;
  /** true: every fill since the range's start is served; false: older ones may be gone. */
  complete: boolean;
  /** With `complete` false: the oldest fill still served; fills before it cannot be read again (unix ms). */
  horizonMs: number | null;
};

export function fillRetention(keptTimes: readonly number[]): FillRetention {
  const kept = keptTimes.length;
  if (kept < FILLS_KEPT) return { kept, complete: true, horizonMs: null };
  return { kept, complete: false, horizonMs: Math.min(...keptTimes) };
}
