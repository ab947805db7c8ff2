/**
 * Every figure of a published report given its kind, by one rule for every report: the report is
 * assembled again from the reader's inputs with the service's own pure assembler, and each input
 * the reader could not read for themselves (a declaration, a current-only venue answer, a recorded
 * equity, records past the venue's retention) is given other values: a figure that moves with
 * one rests on it, whatever formula carries it there. Nothing is listed by hand.
 */
import { equalOf, type FigureKind, type FigureRow, leaves } from "./figure-rows.js";

export type RestingCategory = "declared" | "venue-now" | "bracketed" | "beyond-retention";

/** An input the reader takes as recorded or declared rather than reads. */
export type RestingInput<I> = {
  category: RestingCategory;
  /** Other values of that input: a figure that moves under any of them rests on it. */
  perturb: ((inputs: I) => I)[];
  /** Said on each row resting on it: where it is declared, when the venue answered, the bracket. */
  note: string;
  /** bracketed: whether the recorded value lies inside the venue's history (false: the figures differ; null: not checked). */
  inside?: boolean | null;
  /** venue-now: the inputs with the venue's answer read again now (null: the report is too old to re-read). */
  now?: I | null;
};

export type Classification<I> = {
  published: unknown;
  /** The reader's inputs: their own reads, with what they could not read as recorded or declared. */
  inputs: I;
  build: (inputs: I) => unknown;
  resting: RestingInput<I>[];
  /** The inputs with every read emptied: a figure resting on a declaration that keeps its value there rests on no read. */
  withoutReads?: (inputs: I) => I;
  /** Fields that are not figures (the service's own context), left out of the rows. */
  skip?: (figure: string) => boolean;
};

const ORDER: RestingCategory[] = ["beyond-retention", "bracketed", "venue-now", "declared"];

/** The document as it is served: through JSON, as the published one came (bigints as decimal strings). */
const asServed = (doc: unknown): unknown =>
  JSON.parse(JSON.stringify(doc, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "null");

/** Every list of a JSON value with its path (as `leaves` names paths) and its length. */
function listLengths(value: unknown, path = ""): [string, number][] {
  if (Array.isArray(value)) return [[path, value.length], ...value.flatMap((v, i) => listLengths(v, `${path}[${i}]`))];
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => listLengths(v, path ? `${path}.${k}` : k));
  return [];
}

/** The rebuilt document's leaves and list lengths, one map of path → value. */
function shapeOf(doc: unknown): Map<string, unknown> {
  const served = asServed(doc);
  return new Map([...leaves(served), ...listLengths(served).map(([p, n]): [string, unknown] => [`${p}.length`, n])]);
}

export function classifyFigures<I>(c: Classification<I>): FigureRow[] {
  const valuesOf = (inputs: I) => shapeOf(c.build(inputs));
  const again = valuesOf(c.inputs);
  const moved = c.resting.map((r) => {
    const alternates = r.perturb.map((p) => valuesOf(p(c.inputs)));
    return (figure: string) => alternates.some((a) => a.get(figure) !== again.get(figure));
  });
  const bare = c.withoutReads ? valuesOf(c.withoutReads(c.inputs)) : null;
  const nowValues = c.resting.map((r) => (r.now ? valuesOf(r.now) : null));
  const skip = (figure: string) => c.skip?.(figure.replace(/\.length$/, "")) ?? false;

  const classify = ([figure, published]: [string, unknown]): FigureRow => {
    const rederived = again.has(figure) ? again.get(figure) : undefined;
    const on = c.resting.flatMap((r, i) => (moved[i]!(figure) ? [{ r, i }] : []));
    const first = ORDER.map((cat) => on.find((x) => x.r.category === cat)).find((x) => x !== undefined);
    const row = (kind: FigureKind, note?: string, now?: unknown): FigureRow => ({
      figure,
      published,
      rederived,
      equal: equalOf(kind),
      kind,
      ...(note !== undefined && { note }),
      ...(now !== undefined && { now }),
    });
    // Records the venue no longer serves are missing from the reader's inputs: whatever the
    // figure's value, it cannot be re-derived, so it is said, never equal and never "differs".
    if (first?.r.category === "beyond-retention") return row("beyond-retention", first.r.note);
    // A figure that differs though it rests on a recorded venue answer contradicts even that
    // answer, which is worth saying; a declaration is an input like any read, and explains nothing.
    if (rederived !== published)
      return row(
        "differs",
        first && first.r.category !== "declared" ? `rests on ${first.r.category}: ${first.r.note}` : undefined,
      );
    if (!first) return row("equal");
    const { r, i } = first;
    if (r.category === "bracketed" && r.inside === false) return row("differs", r.note);
    if (r.category === "venue-now") {
      const now = nowValues[i]?.get(figure);
      return row("venue-now", r.note, nowValues[i] ? (now ?? null) : undefined);
    }
    // A declared figure that keeps its value with every read emptied is the declaration itself
    // (or arithmetic on declarations); one that does not is re-derived from reads, given it.
    if (r.category === "declared" && bare && bare.get(figure) !== rederived) return row("equal");
    return row(r.category, r.note);
  };

  const published = asServed(c.published);
  const rows = leaves(published)
    .filter(([figure]) => !skip(figure))
    .map(classify);
  // What the published document leaves out: a list of another length (an entry dropped from its
  // end moves no published leaf), or a key the reader's rebuild has, is a figure of its own.
  const shown = new Set(rows.map((r) => r.figure));
  const lengths = listLengths(published)
    .filter(([path, n]) => path !== "" && !skip(path) && again.get(`${path}.length`) !== n)
    .map(([path, n]) => classify([`${path}.length`, n]));
  const publishedLists = new Map(listLengths(published));
  const insideShorterList = (figure: string) =>
    [...figure.matchAll(/\[(\d+)\]/g)].some((m) => {
      const list = figure.slice(0, m.index);
      return Number(m[1]) >= (publishedLists.get(list) ?? Number.POSITIVE_INFINITY);
    });
  const missing = [...again.keys()]
    .filter((f) => !f.endsWith(".length") && !shown.has(f) && !skip(f) && !insideShorterList(f))
    .map((f) => classify([f, undefined]));
  return [...rows, ...lengths, ...missing];
}
