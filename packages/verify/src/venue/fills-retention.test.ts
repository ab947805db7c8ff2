import { describe, expect, it } from "vitest";
import { FILLS_KEPT, fillRetention } from "./fills-retention.js";

describe("fillRetention", () => {
  it("fewer kept than the venue keeps: nothing since the start was dropped", () => {
    expect(fillRetention([3, 1, 2])).toEqual({ kept: 3, complete: true, horizonMs: null });
  });

  it("as many as the venue keeps: fills before the oldest kept may be gone", () => {
    const times = Array.from({ length: FILLS_KEPT }, (_, i) => 1_000 + i);
    expect(fillRetention(times)).toEqual({ kept: FILLS_KEPT, complete: false, horizonMs: 1_000 });
  });
});
