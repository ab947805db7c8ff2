/**
 * The ledger of compared items and its rendering. A row is "ok" when both sides gave the same
 * string, "DIFF" when they did not, and "SKIP" when one side could not run at all (a reference
 * that does not compile, a devnet artifact that does not exist): a skip fails the run like a
 * difference, so a comparison is never narrowed silently.
 */
export type RowStatus = "ok" | "DIFF" | "SKIP";

export type Row = { step: number; call: string; item: string; a: string; b: string; status: RowStatus };

export class Ledger {
  readonly rows: Row[] = [];
  calls = 0;

  compare(step: number, call: string, item: string, a: string, b: string): boolean {
    const status: RowStatus = a === b ? "ok" : "DIFF";
    this.rows.push({ step, call, item, a, b, status });
    return status === "ok";
  }

  skip(step: number, call: string, item: string, why: string): void {
    this.rows.push({ step, call, item, a: why, b: why, status: "SKIP" });
  }

  failures(): Row[] {
    return this.rows.filter((r) => r.status !== "ok");
  }
}

const clean = (s: string) => s.replace(/\s*\n\s*/g, " ⏎ ");

export function renderRow(r: Row): string {
  return [r.status.padEnd(4), String(r.step).padStart(4), clean(r.call), clean(r.item), clean(r.a), clean(r.b)].join(
    " | ",
  );
}

export function renderTable(rows: Row[]): string {
  const header = ["stat", "step", "call", "item", "side A (reference)", "side B (devnet)"].join(" | ");
  return [header, ...rows.map(renderRow)].join("\n");
}

/**
 * Every row that is not ok, losslessly folded: consecutive steps where an item kept the same pair
 * of values become one line. Outcomes and events are never folded across calls.
 */
export function foldFailures(rows: Row[]): string[] {
  type Run = { first: Row; last: Row; count: number };
  const runs: Run[] = [];
  const open = new Map<string, Run>();
  for (const r of rows) {
    const perCall = r.step === 0 || r.item === "outcome" || r.item.startsWith("event[") || r.item === "call";
    const key = perCall ? `${r.call}\u0000${r.item}` : r.item;
    const run = open.get(key);
    if (r.status === "ok") {
      open.delete(key);
      continue;
    }
    if (run && run.first.a === r.a && run.first.b === r.b && run.first.status === r.status) {
      run.last = r;
      run.count++;
      continue;
    }
    const fresh = { first: r, last: r, count: 1 };
    runs.push(fresh);
    open.set(key, fresh);
  }
  return runs.map(({ first, last, count }) => {
    const steps = count === 1 ? `step ${first.step}` : `steps ${first.step}-${last.step} (${count} rows)`;
    return [
      first.status,
      steps,
      clean(first.call),
      clean(first.item),
      `A=${clean(first.a)}`,
      `B=${clean(first.b)}`,
    ].join(" | ");
  });
}
