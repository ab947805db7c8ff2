/**
 * queue-fifo (patches/README.md): Ponder's queue dequeues in constant time. Its historical sync
 * enqueues every block number of a range at once (100,000 with the doctor's getLogs range), and an
 * Array's shift moves every element left behind it once the array outgrows V8's in-place trim.
 */
import { describe, expect, it } from "vitest";

type Queue = {
  add: (task: number) => Promise<unknown>;
  start: () => Promise<void>;
  pause: () => void;
  clear: () => void;
  size: () => number;
};
const { createQueue }: { createQueue: (o: object) => Queue } = await import(
  new URL("../../node_modules/ponder/dist/esm/utils/queue.js", import.meta.url).href
);

const BACKLOG = 100_000;

describe("Ponder's queue (patched: a FIFO)", () => {
  it("runs its tasks in order; clear drops those waiting", async () => {
    const seen: number[] = [];
    const queue = createQueue({
      browser: false,
      initialStart: false,
      concurrency: 1,
      worker: async (n: number) => {
        seen.push(n);
      },
    });
    for (const n of [1, 2, 3]) void queue.add(n);
    expect(queue.size()).toBe(3);
    queue.clear();
    expect(queue.size()).toBe(0);
    await queue.start();
    await Promise.all([7, 8, 9].map((n) => queue.add(n)));
    expect(seen).toEqual([7, 8, 9]);
  });

  it("takes each task off a backlog of 100,000 without moving the rest (no Array#shift of it)", async () => {
    // Array#shift moves every element behind the first once the array outgrows V8's in-place trim
    // (about 16,000 elements). Its time is measured, not asserted (patches/README.md): a timed test
    // would fail on a busy machine, and Array#shift is now and then fast on a large array too.
    const shift = Array.prototype.shift;
    let shiftsOfBacklog = 0;
    let taken = 0;
    let finish = () => {};
    const finished = new Promise<void>((r) => {
      finish = r;
    });
    const queue = createQueue({
      browser: false,
      initialStart: false,
      concurrency: 1,
      worker: async () => {
        if (++taken === 1_000) finish();
      },
    });
    for (let i = 0; i < BACKLOG; i++) void queue.add(i);
    Array.prototype.shift = function (this: unknown[]) {
      if (this.length > BACKLOG / 2) shiftsOfBacklog++;
      return shift.call(this);
    };
    try {
      await queue.start();
      await finished;
    } finally {
      Array.prototype.shift = shift;
      queue.pause();
      queue.clear();
    }
    expect(taken).toBeGreaterThanOrEqual(1_000);
    expect(shiftsOfBacklog).toBe(0);
  });
});
