import { describe, expect, it, vi } from "vitest";
import { firstCatchUp } from "./first-catch-up.js";

describe("firstCatchUp", () => {
  it("resolves on the first ask that finds the indexer caught up, asking again after a failure", async () => {
    const answers = [false, "fail", false, true] as const;
    let asked = 0;
    const watch = firstCatchUp(async () => {
      const a = answers[asked++]!;
      if (a === "fail") throw new Error("rpc down");
      return a;
    }, 1);
    await watch.caughtUp;
    expect(asked).toBe(4);
    watch.stop();
  });

  it("asks no more once stopped, and never resolves", async () => {
    vi.useFakeTimers();
    try {
      const ask = vi.fn(async () => false);
      const watch = firstCatchUp(ask, 1_000);
      await vi.advanceTimersByTimeAsync(2_500);
      const asked = ask.mock.calls.length;
      expect(asked).toBe(3);
      watch.stop();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(ask).toHaveBeenCalledTimes(asked);
      expect(vi.getTimerCount()).toBe(0);
      const settled = vi.fn();
      void watch.caughtUp.then(settled);
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
