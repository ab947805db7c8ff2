/**
 * One figure of a benchmark, for `npm run bench`'s single table. Each bench prints its own
 * output and, when BENCH_RESULTS names a file, appends its figures there as JSON lines;
 * bench/all.ts runs them all and prints the table.
 */
import { appendFileSync } from "node:fs";

export type Figure = {
  /** What was measured, e.g. "GET /api/por, 20 clients: req/s". */
  figure: string;
  value: number;
  unit: string;
  /** The same-run baseline the figure is compared with, when there is one. */
  baseline?: { name: string; value: number };
  /** The target, as text (e.g. "≥ 0.8 × constant"), and whether this run met it. */
  target?: string;
  holds?: boolean;
};

export function recordFigures(bench: string, figures: Figure[]): void {
  const file = process.env.BENCH_RESULTS;
  if (!file) return;
  appendFileSync(file, figures.map((f) => `${JSON.stringify({ bench, ...f })}\n`).join(""));
}

/** A ratio target: `value / baseline ≥ min`. */
export const atLeast = (ratio: number, min: number) => ({ target: `≥ ${min} ×`, holds: ratio >= min });
/** An absolute ceiling: `value ≤ max`. */
export const atMost = (value: number, max: number, unit: string) => ({
  target: `≤ ${max} ${unit}`,
  holds: value <= max,
});
