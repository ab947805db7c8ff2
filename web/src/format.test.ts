import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amount, money } from "./format.js";

// The page's own grouping must print what en-US Intl prints (Node carries ICU), for any double.
const usd = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

describe("money and amount", () => {
  it("equal en-US Intl.NumberFormat on chosen values", () => {
    for (const n of [0, -0, 0.005, 0.015, 1.005, 2.675, 999.995, 1000, 1_234_567.891, -1_234.5, -0.004, 1e15, 123.4]) {
      expect(money(n), String(n)).toBe(usd.format(n));
      expect(amount(n), String(n)).toBe(plain.format(n));
    }
  });

  it("equal en-US Intl.NumberFormat on any finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(money(n)).toBe(usd.format(n));
        expect(amount(n)).toBe(plain.format(n));
      }),
      { numRuns: 5000 },
    );
  });

  it("says unknown for a missing figure", () => {
    expect(money(null)).toBe("unknown");
    expect(amount(undefined)).toBe("unknown");
  });
});
