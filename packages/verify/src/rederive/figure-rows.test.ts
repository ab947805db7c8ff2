import { describe, expect, it } from "vitest";
import { figureRows, leaves } from "./figure-rows.js";

describe("figure rows", () => {
  it("a leaf per figure, arrays by index", () => {
    expect(leaves({ a: 1, b: { c: [{ d: true }] } })).toEqual([
      ["a", 1],
      ["b.c[0].d", true],
    ]);
  });

  const published = { timestamp: 5, psm: 10, ratio: 2, offchain: { equity_usd: 7 } };
  it("chain figures equal or not; signing fields left out", () => {
    const rows = figureRows(published, { ...published, psm: 11 }, [
      { ...published, psm: 11, offchain: { equity_usd: 0 } },
    ]);
    expect(rows.map((r) => [r.figure, r.equal, r.basis])).toEqual([
      ["psm", false, "chain"],
      ["ratio", true, "chain"],
      ["offchain.equity_usd", null, "venue-recorded"],
    ]);
  });

  it("a figure on the venue equity is never equal: null when consistent with the recorded equity, false when not", () => {
    const rederived = { ...published, ratio: 3 };
    const rows = figureRows(published, rederived, [{ ...rederived, ratio: 9, offchain: { equity_usd: 0 } }]);
    expect(rows.find((r) => r.figure === "ratio")).toMatchObject({ basis: "venue-recorded", equal: false });
    expect(rows.find((r) => r.figure === "offchain.equity_usd")).toMatchObject({ equal: null });
  });

  it("a figure the re-derivation lacks is not equal", () => {
    expect(figureRows({ extra: 1 }, {}, []).map((r) => r.equal)).toEqual([false]);
  });
});
