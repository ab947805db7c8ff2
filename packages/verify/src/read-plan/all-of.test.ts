import { describe, expect, it } from "vitest";
import { allOf } from "./all-of.js";

describe("allOf", () => {
  it("awaits every read of a plan together into the same keys", async () => {
    const asked: string[] = [];
    const read = async (name: string, value: number) => {
      asked.push(name);
      await new Promise((r) => setTimeout(r, 5));
      return value;
    };
    const plan = { a: read("a", 1), b: 2, c: allOf({ d: read("d", 4) }) };
    expect(asked).toEqual(["a", "d"]); // both asked before anything was awaited
    expect(await plan.c).toEqual({ d: 4 });
    expect(await allOf(plan)).toEqual({ a: 1, b: 2, c: { d: 4 } });
  });
});
