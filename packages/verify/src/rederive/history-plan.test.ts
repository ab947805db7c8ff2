import { bucketStart, type KnownBlock, planPoints } from "@kusd/core";
import type { PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { HeaderTimes } from "./header-times.js";
import { sampleAtOrBefore } from "./history-blocks.js";
import { plannedPoints } from "./history-plan.js";

const DAY = 86_400;
const T0 = Date.UTC(2026, 4, 14) / 1000;

/** A chain of 1,000 blocks over 17 days, 10 to 30 minutes apart, three days without a block; every header read counted. */
function chain() {
  const time = new Map<bigint, number>();
  let t = T0 + 3_600;
  for (let b = 0n; b < 1_000n; b++) {
    time.set(b, t);
    t += b === 300n ? 3 * DAY : 600 * (1 + Number(b % 3n));
  }
  const client = {
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({ timestamp: BigInt(time.get(blockNumber)!) }),
  } as unknown as PublicClient;
  return { time, times: new HeaderTimes(client) };
}

describe("plannedPoints", () => {
  it("plans the DAY points as planPoints does on every block's time, reading far fewer headers", async () => {
    const { time, times } = chain();
    const known = [...time.keys()].filter((b) => b % 7n === 0n || b % 11n === 3n);
    const all: KnownBlock[] = known.map((b) => ({ blockNumber: b, timestamp: time.get(b)! }));
    const q = { interval: "DAY" as const, fromBlock: 5n, toBlock: 990n, step: null, toTime: time.get(990n)! };
    const expected = planPoints("DAY", q, all);
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.some((p) => p.carried)).toBe(true);
    expect(await plannedPoints(times, q, known)).toEqual(expected);
    expect(times.calls).toBeLessThan(known.length / 2);
  });

  it("WEEK and BLOCKS alike", async () => {
    const { time, times } = chain();
    const known = [...time.keys()].filter((b) => b % 5n === 1n);
    const all: KnownBlock[] = known.map((b) => ({ blockNumber: b, timestamp: time.get(b)! }));
    const week = { interval: "WEEK" as const, fromBlock: 0n, toBlock: 999n, step: null, toTime: time.get(999n)! };
    expect(await plannedPoints(times, week, known)).toEqual(planPoints("WEEK", week, all));
    const blocks = { interval: "BLOCKS" as const, fromBlock: 1n, toBlock: 300n, step: 10n, toTime: 0 };
    expect(await plannedPoints(times, blocks, known)).toEqual(planPoints("BLOCKS", blocks, all));
    expect(bucketStart("WEEK", T0)).toBeLessThanOrEqual(T0);
  });
});

describe("sampleAtOrBefore", () => {
  it("the latest sample of the interval at or before a block", () => {
    const s = { first: 100n, interval: 25n };
    expect(sampleAtOrBefore(s, 99n)).toBeNull();
    expect(sampleAtOrBefore(s, 100n)).toBe(100n);
    expect(sampleAtOrBefore(s, 149n)).toBe(125n);
    expect(sampleAtOrBefore({ first: null, interval: 25n }, 1_000n)).toBeNull();
  });
});
