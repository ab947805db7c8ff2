/**
 * lastBlockAtOrBefore against a made-up chain with uneven block times (gaps like a devnet's time
 * jumps, runs of one-second blocks): for every target, with no hint, a right one, one off by a
 * block either way, one far off and one past the head, it finds the block a linear scan finds,
 * and a right hint costs two headers; on a chain of even block times the rate finds each window.
 */
import type { BlockPin } from "@kusd/core";
import { describe, expect, it } from "vitest";
import { boardWindows, lastBlockAtOrBefore } from "./honesty-index-reads.js";

const HEAD = 600;
const times: number[] = [];
for (let n = 0, t = 1_000_000; n <= HEAD; n++) {
  times.push(t);
  t += n % 97 === 0 ? 86_400 * 20 : n % 5 === 0 ? 7_200 : 1;
}
const pin = (n: number): BlockPin => ({
  number: n,
  hash: `0x${n.toString(16).padStart(64, "0")}`,
  timestamp: times[n]!,
});
const head = pin(HEAD);

function chain() {
  const asked: number[] = [];
  const header = async (n: number) => {
    if (n < 0 || n > HEAD) throw new Error(`no block ${n}`);
    asked.push(n);
    return pin(n);
  };
  return { header, asked };
}

/** The last block at or before t by scanning every block. */
const scan = (t: number) => {
  let found: number | null = null;
  for (let n = 0; n <= HEAD; n++) if (times[n]! <= t) found = n;
  return found;
};

describe("lastBlockAtOrBefore", () => {
  const targets = [
    times[0]! - 1,
    times[0]!,
    ...Array.from({ length: 150 }, (_, i) => times[0]! + Math.floor(((times[HEAD]! - times[0]!) * i) / 150) + (i % 3)),
    times[HEAD - 1]!,
  ];

  it("finds the block a scan finds, and the block after it, from any hint or none", async () => {
    for (const t of targets) {
      const want = scan(t);
      for (const hint of [undefined, want ?? 0, (want ?? 0) + 1, (want ?? 0) - 1, 3, HEAD - 2, HEAD + 50, -4]) {
        const { header } = chain();
        const got = await lastBlockAtOrBefore(header, t, head, hint);
        expect(got.block?.number ?? null, `target ${t}, hint ${hint}`).toBe(want);
        expect(got.next?.number, `target ${t}, hint ${hint}`).toBe(want === null ? 0 : want + 1);
        expect(got.next!.timestamp).toBeGreaterThan(t);
        if (got.block) expect(got.block.timestamp).toBeLessThanOrEqual(t);
      }
    }
  });

  it("a right hint costs its header and the next; a target at or past the head is the head", async () => {
    const t = times[250]! + 1;
    const c = chain();
    await lastBlockAtOrBefore(c.header, t, head, scan(t)!);
    expect(c.asked).toEqual([scan(t), scan(t)! + 1]);
    const late = chain();
    expect(await lastBlockAtOrBefore(late.header, times[HEAD]!, head)).toEqual({ block: head, next: null });
    expect(late.asked).toEqual([]);
  });

  it("boardWindows finds every window on a chain of even block times from the block rate: seven headers", async () => {
    const HEIGHT = 40_000_000;
    const even = (n: number): BlockPin => ({
      number: n,
      hash: `0x${n.toString(16).padStart(64, "0")}`,
      timestamp: 1_686_789_347 + 2 * n,
    });
    const asked: number[] = [];
    const header = async (n: number) => {
      asked.push(n);
      return even(n);
    };
    const windows = await boardWindows(header, even(HEIGHT));
    expect(windows.map((w) => w.block!.number)).toEqual([7, 30, 90].map((days) => HEIGHT - (days * 86_400) / 2));
    expect(asked).toHaveLength(7);
  });

  it("boardWindows counts each window back from the head's time, in the board's order", async () => {
    const windows = await boardWindows(chain().header, head);
    expect(windows.map((w) => w.days)).toEqual([7, 30, 90]);
    for (const w of windows) {
      expect(w.target).toBe(times[HEAD]! - w.days * 86_400);
      expect(w.block).not.toBeNull();
      expect(w.block!.number).toBe(scan(w.target));
    }
  });
});
