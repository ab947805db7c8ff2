/**
 * Latencies of a load, kept with the time they were taken, for percentiles over a whole run or a
 * window of it (a minute, the first or last ten minutes).
 */
import { readFileSync } from "node:fs";

/** The q-quantile (0..1) of `xs` (NaN when empty), nearest rank. */
export const quantile = (xs: readonly number[], q: number): number =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : Number.NaN;

export class Latencies {
  private readonly at: number[] = [];
  private readonly ms: number[] = [];

  add(atMs: number, ms: number): void {
    this.at.push(atMs);
    this.ms.push(ms);
  }

  get count(): number {
    return this.ms.length;
  }

  /** The latencies taken at `fromMs` ≤ t < `toMs`. */
  between(fromMs: number, toMs: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.at.length; i++) if (this.at[i]! >= fromMs && this.at[i]! < toMs) out.push(this.ms[i]!);
    return out;
  }

  all(): number[] {
    return [...this.ms];
  }
}

/** Least-squares slope of y over x (NaN with fewer than two points). */
export function slope(points: ReadonlyArray<{ x: number; y: number }>): number {
  if (points.length < 2) return Number.NaN;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? Number.NaN : num / den;
}

/** Resident set (VmRSS) or its peak (VmHWM) of a process, in MB; null off Linux. */
export function processRssMb(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
