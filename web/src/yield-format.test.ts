import { pct } from "@kusd/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { percent } from "./format.js";
import { monthBounds, monthFills } from "./yield-format.js";

describe("percent", () => {
  it("at 2 decimals is the API's own percentage text (expectedAPYPct), for any fraction", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), (f) => {
        expect(percent(f)).toBe(pct(f));
      }),
      { numRuns: 2000 },
    );
  });
  it("keeps the digits asked for, and says unknown for a missing figure", () => {
    expect(percent(0.05526307, 4)).toBe("5.5263%");
    expect(percent(0)).toBe("0.00%");
    expect(percent(null)).toBe("unknown");
  });
});

describe("monthBounds", () => {
  it("is the UTC month, December to January", () => {
    expect(monthBounds("2026-12").map((t) => new Date(t).toISOString())).toEqual([
      "2026-12-01T00:00:00.000Z",
      "2027-01-01T00:00:00.000Z",
    ]);
  });
  it("refuses anything but YYYY-MM", () => {
    expect(() => monthBounds("2026-5")).toThrow(/YYYY-MM/);
  });
});

describe("monthFills: the months whose fills the venue no longer serves", () => {
  const cut = { complete: false, horizonISO: "2026-08-19T22:30:01.371Z" };
  it("every fill served, or unknown: every month kept", () => {
    expect(monthFills("2026-05", { complete: true, horizonISO: null })).toBe("kept");
    expect(monthFills("2026-05", { complete: null, horizonISO: null })).toBe("kept");
  });
  it("months that ended before the oldest served fill are gone, the month holding it partly, later ones kept", () => {
    expect(["2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-12"].map((m) => monthFills(m, cut))).toEqual([
      "gone",
      "gone",
      "gone",
      "partly",
      "kept",
      "kept",
    ]);
  });
  it("a horizon on a month's first instant: the month before is gone, that month kept", () => {
    const edge = { complete: false, horizonISO: "2026-09-01T00:00:00.000Z" };
    expect(monthFills("2026-08", edge)).toBe("gone");
    expect(monthFills("2026-09", edge)).toBe("kept");
  });
});
