import { describe, expect, it } from "vitest";
import { createHeadWatch } from "./head-watch.js";
import type { IndexedHead } from "./indexed-reads.js";

const at = (n: number): IndexedHead => ({ chain: "base", chainId: 8453, blockNumber: BigInt(n), timestamp: n });

/** A checkpoint that reads `heads` in turn (the last one from then on), counting the reads. */
function checkpoint(heads: (IndexedHead | null)[]) {
  let reads = 0;
  return {
    read: async () => heads[Math.min(reads++, heads.length - 1)]!,
    reads: () => reads,
  };
}

describe("head watch", () => {
  it("wakes a waiter once the head is past the one it knows, and at once when it already is", async () => {
    const c = checkpoint([at(5), at(5), at(6)]);
    const watch = createHeadWatch(c.read, 1);
    expect((await watch.beyond(5n))?.blockNumber).toBe(6n);
    expect(c.reads()).toBe(3);
    expect((await watch.beyond(4n))?.blockNumber).toBe(6n);
  });

  it("a reorg back to a lower head wakes too; no head yet is null", async () => {
    const watch = createHeadWatch(checkpoint([null, at(9), at(7)]).read, 1);
    expect((await watch.beyond(null))?.blockNumber).toBe(9n);
    expect((await watch.beyond(9n))?.blockNumber).toBe(7n);
  });

  it("ends with null when its signal aborts, and reads nothing while no one waits", async () => {
    const c = checkpoint([at(3)]);
    const watch = createHeadWatch(c.read, 1);
    const stop = new AbortController();
    const waiting = watch.beyond(3n, stop.signal);
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await waiting).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    const after = c.reads();
    await new Promise((r) => setTimeout(r, 30));
    expect(c.reads()).toBe(after);
    expect(after).toBeGreaterThan(1);
  });

  it("a failed read wakes no one and is tried again", async () => {
    let n = 0;
    const watch = createHeadWatch(async () => {
      n++;
      if (n === 1) throw new Error("database restarting");
      return at(2);
    }, 1);
    expect((await watch.beyond(1n))?.blockNumber).toBe(2n);
    expect(n).toBe(2);
  });
});
