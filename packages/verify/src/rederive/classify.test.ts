import { describe, expect, it } from "vitest";
import { classifyFigures } from "./classify.js";

type In = { chain: number; fee: number; equity: number | null; now: number; old: number };
const build = (i: In) => ({
  reserve: i.chain,
  net: i.chain * (1 - i.fee),
  fee: i.fee,
  recognised: i.equity === null ? 0 : Math.min(i.chain, i.equity),
  leverage: i.now / i.chain,
  total: i.old + i.chain,
  constant: "deployed",
});
const inputs: In = { chain: 100, fee: 0.1, equity: 150, now: 50, old: 7 };
const classify = (published: unknown, o: { inside?: boolean | null; now?: In | null } = {}) =>
  classifyFigures({
    published,
    inputs,
    build,
    withoutReads: (i) => ({ ...i, chain: 0, equity: null, now: 0, old: 0 }),
    resting: [
      { category: "declared", perturb: [(i) => ({ ...i, fee: 0.5 })], note: "yieldPolicy" },
      { category: "venue-now", perturb: [(i) => ({ ...i, now: 1 })], note: "clearinghouseState", now: o.now ?? null },
      {
        category: "bracketed",
        perturb: [(i) => ({ ...i, equity: null }), (i) => ({ ...i, equity: 0 }), (i) => ({ ...i, equity: 1e12 })],
        note: "inside the samples",
        inside: o.inside ?? true,
      },
      { category: "beyond-retention", perturb: [(i) => ({ ...i, old: 0 })], note: "fills before the horizon" },
    ],
  });
const kinds = (rows: ReturnType<typeof classify>) => Object.fromEntries(rows.map((r) => [r.figure, r.kind]));

describe("classifyFigures", () => {
  it("each figure by what it moves with; a declaration re-derived from reads is equal", () => {
    expect(kinds(classify(build(inputs)))).toEqual({
      reserve: "equal",
      net: "equal",
      fee: "declared",
      recognised: "bracketed",
      leverage: "venue-now",
      total: "beyond-retention",
      constant: "equal",
    });
  });

  it("equal is true, false or null by kind", () => {
    const rows = classify({ ...build(inputs), reserve: 101 });
    expect(rows.map((r) => [r.figure, r.equal])).toEqual([
      ["reserve", false],
      ["net", true],
      ["fee", null],
      ["recognised", null],
      ["leverage", null],
      ["total", null],
      ["constant", true],
    ]);
  });

  it("a recorded input that does not reproduce the figure differs, whatever it rests on", () => {
    const rows = classify({ ...build(inputs), leverage: 0.6, fee: 0.2 });
    expect(kinds(rows)).toMatchObject({ leverage: "differs", fee: "differs" });
    expect(rows.find((r) => r.figure === "leverage")?.note).toMatch(/^rests on venue-now/);
  });

  it("a figure resting on records past the venue's retention is said, whatever its value", () => {
    expect(kinds(classify({ ...build(inputs), total: 1_000 })).total).toBe("beyond-retention");
  });

  it("an equity outside the venue's history differs", () => {
    expect(kinds(classify(build(inputs), { inside: false })).recognised).toBe("differs");
  });

  it("venue-now shows the value read again now", () => {
    const rows = classify(build(inputs), { now: { ...inputs, now: 60 } });
    expect(rows.find((r) => r.figure === "leverage")).toMatchObject({ kind: "venue-now", now: 0.6, rederived: 0.5 });
  });

  it("a figure the re-derivation lacks differs, and so does every figure the published document lacks", () => {
    const k = kinds(classify({ extra: 1 }));
    expect(k.extra).toBe("differs");
    expect(k.reserve).toBe("differs");
    // What rests on records past the venue's retention is said, present or not.
    expect(k.total).toBe("beyond-retention");
  });
});

describe("classifyFigures: what the published document leaves out", () => {
  const build = (i: { items: number[]; extra: boolean }) => ({ items: i.items, ...(i.extra && { extra: 1 }) });
  const run = (published: unknown) =>
    classifyFigures({ published, inputs: { items: [1, 2, 3], extra: true }, build, resting: [] });

  it("a list entry left out at its end is named by the list's length", () => {
    const rows = run({ items: [1, 2], extra: 1 });
    expect(rows.filter((r) => r.kind === "differs").map((r) => [r.figure, r.published, r.rederived])).toEqual([
      ["items.length", 2, 3],
    ]);
  });

  it("a key the reader's rebuild has and the published lacks differs", () => {
    expect(
      run({ items: [1, 2, 3] })
        .filter((r) => r.kind === "differs")
        .map((r) => r.figure),
    ).toEqual(["extra"]);
  });

  it("a complete document adds no row", () => {
    expect(run({ items: [1, 2, 3], extra: 1 }).map((r) => r.kind)).toEqual(["equal", "equal", "equal", "equal"]);
  });
});
