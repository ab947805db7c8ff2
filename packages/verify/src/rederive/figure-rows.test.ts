import { describe, expect, it } from "vitest";
import { countByKind, type FigureRow, kindSummary, leaves } from "./figure-rows.js";

const row = (kind: FigureRow["kind"]): FigureRow => ({ figure: "x", published: 1, rederived: 1, equal: null, kind });

describe("figure rows", () => {
  it("a leaf per figure, arrays by index", () => {
    expect(leaves({ a: 1, b: { c: [{ d: true }] } })).toEqual([
      ["a", 1],
      ["b.c[0].d", true],
    ]);
  });

  it("counts by kind, in the vocabulary's order, differs always said", () => {
    const rows = [row("equal"), row("equal"), row("venue-now"), row("declared")];
    expect(countByKind(rows)).toMatchObject({ equal: 2, "venue-now": 1, declared: 1, differs: 0 });
    expect(kindSummary(rows)).toBe("4 figures: 2 equal, 0 differs, 1 declared, 1 venue-now");
  });
});
