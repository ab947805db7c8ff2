import { parseEther, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import {
  buildHistory,
  HistoryPointSchema,
  HistoryRangeError,
  type HistoryRows,
  knownBlocks,
  planPoints,
} from "./series.js";

// 2026-04-06 is a Monday. Blocks 10 and 11 fall on Monday, 20 on Tuesday, 30 on the next Monday.
const MON = Date.UTC(2026, 3, 6) / 1000;
const DAY = 86_400;
const t = { 10: MON + 100, 11: MON + 200, 20: MON + DAY + 5, 30: MON + 7 * DAY + 1 } as const;

const rows: HistoryRows = {
  supply: [
    { blockNumber: 10n, timestamp: t[10], delta: parseEther("1000") },
    { blockNumber: 20n, timestamp: t[20], delta: parseEther("500") },
    { blockNumber: 30n, timestamp: t[30], delta: -parseEther("100") },
  ],
  psmBalances: [
    { blockNumber: 10n, timestamp: t[10], psmKey: "psmMint", token: "USDC", delta: parseUnits("1000", 6) },
    { blockNumber: 20n, timestamp: t[20], psmKey: "psmMint", token: "USDC", delta: parseUnits("500", 6) },
    // Block 20: a redemption of 200 kUSD at the reserve PSM pays 199 USDC and keeps the kUSD.
    { blockNumber: 20n, timestamp: t[20], psmKey: "psmRedeemReserve", token: "USDC", delta: parseUnits("300", 6) },
    { blockNumber: 20n, timestamp: t[20], psmKey: "psmRedeemReserve", token: "USDC", delta: -parseUnits("199", 6) },
    { blockNumber: 20n, timestamp: t[20], psmKey: "psmRedeemReserve", token: "kUSD", delta: parseEther("200") },
  ],
  sharePrices: [{ blockNumber: 11n, timestamp: t[11], assetsPerShare: parseEther("1.05") }],
  redemptions: [{ blockNumber: 20n, timestamp: t[20], count: 1, kusd: parseEther("200"), usdc: parseUnits("199", 6) }],
};

describe("planPoints", () => {
  const known = knownBlocks(rows);

  it("DAY: one point per UTC day with an indexed block at its last block, the days between carried", () => {
    const plan = planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null }, known);
    // Monday, Tuesday, five carried days (Wednesday to Sunday), the next Monday.
    expect(plan.map((p) => p.blockNumber)).toEqual([11n, 20n, 20n, 20n, 20n, 20n, 20n, 30n]);
    expect(plan.map((p) => p.carried)).toEqual([false, false, true, true, true, true, true, false]);
    expect(plan[0]!.period).toEqual({ start: MON, end: MON + DAY });
    expect(plan[0]!.windowFrom).toBe(10n);
    expect(plan[2]).toEqual({
      blockNumber: 20n,
      timestamp: t[20],
      period: { start: MON + 2 * DAY, end: MON + 3 * DAY },
      windowFrom: null,
      carried: true,
    });
    // One point per day: consecutive periods, no gap, no repeat.
    for (const [i, p] of plan.entries()) expect(p.period!.start).toBe(MON + i * DAY);
  });

  it("DAY runs to toTime's day (the head's), carrying the last state", () => {
    const plan = planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null, toTime: t[30] + 3 * DAY + 7 }, known);
    expect(plan).toHaveLength(8 + 3);
    expect(plan.slice(-3).every((p) => p.carried && p.blockNumber === 30n && p.timestamp === t[30])).toBe(true);
    expect(plan.at(-1)!.period!.start).toBe(MON + 10 * DAY);
    // A toTime before the last indexed day never cuts the series short.
    expect(planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null, toTime: MON }, known)).toHaveLength(8);
  });

  it("DAY starts at the first indexed block in the range, and is empty without one", () => {
    const plan = planPoints("DAY", { fromBlock: 20n, toBlock: 100n, step: null }, known);
    expect(plan[0]).toMatchObject({ blockNumber: 20n, carried: false, windowFrom: 20n });
    expect(plan).toHaveLength(7);
    expect(planPoints("DAY", { fromBlock: 31n, toBlock: 100n, step: null, toTime: t[30] + DAY }, known)).toEqual([]);
  });

  it("WEEK: weeks start on Monday", () => {
    const plan = planPoints("WEEK", { fromBlock: 0n, toBlock: 100n, step: null }, known);
    expect(plan.map((p) => p.blockNumber)).toEqual([20n, 30n]);
    expect(plan[1]!.period).toEqual({ start: MON + 7 * DAY, end: MON + 14 * DAY });
  });

  it("WEEK is dense too: a week without an indexed block is carried", () => {
    const plan = planPoints("WEEK", { fromBlock: 0n, toBlock: 100n, step: null, toTime: t[30] + 15 * DAY }, known);
    expect(plan.map((p) => [p.blockNumber, p.carried])).toEqual([
      [20n, false],
      [30n, false],
      [30n, true],
      [30n, true],
    ]);
  });

  it("BLOCKS: every step blocks, the time only where a block is known", () => {
    const plan = planPoints("BLOCKS", { fromBlock: 10n, toBlock: 30n, step: 10n }, known);
    expect(plan.map((p) => [p.blockNumber, p.timestamp, p.windowFrom])).toEqual([
      [10n, t[10], 1n],
      [20n, t[20], 11n],
      [30n, t[30], 21n],
    ]);
    expect(planPoints("BLOCKS", { fromBlock: 12n, toBlock: 12n, step: 5n }, known)[0]!.timestamp).toBeNull();
  });

  it("refuses a missing step, an inverted range and too many points", () => {
    expect(() => planPoints("BLOCKS", { fromBlock: 0n, toBlock: 1n, step: null }, known)).toThrow(HistoryRangeError);
    expect(() => planPoints("DAY", { fromBlock: 5n, toBlock: 1n, step: null }, known)).toThrow(/after/);
    expect(() => planPoints("BLOCKS", { fromBlock: 0n, toBlock: 1_000_000n, step: 1n }, known)).toThrow(/at most/);
    // Dense days count against the limit too: 2,001 days from the first indexed one.
    const far = { fromBlock: 0n, toBlock: 100n, step: null, toTime: MON + 2000 * DAY };
    expect(() => planPoints("DAY", far, known)).toThrow(/2001 periods; at most 2000/);
    expect(planPoints("DAY", { ...far, toTime: MON + 1999 * DAY }, known)).toHaveLength(2000);
  });
});

describe("buildHistory", () => {
  const points = buildHistory(planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null }, knownBlocks(rows)), rows);
  const real = points.filter((p) => !p.carried);

  it("running supply, outstanding and USDC per PSM at each point's block", () => {
    expect(real.map((p) => p.kusdSupply)).toEqual([1000, 1500, 1400]);
    // Outstanding: supply minus the 200 kUSD the reserve PSM keeps from block 20 on.
    expect(real.map((p) => p.kusdOutstanding)).toEqual([1000, 1300, 1200]);
    expect(real[1]!.psmUSDC).toEqual({ psmMint: 1500, psmRetiredMint: 0, psmRedeemReserve: 101, total: 1601 });
    expect(real[1]!.kusdOutstandingWei).toBe(parseEther("1300").toString());
  });

  it("backing ratio = PSM USDC / outstanding kUSD", () => {
    expect(real[0]!.backingRatio).toBe(1);
    expect(real[1]!.backingRatio).toBeCloseTo(1601 / 1300, 8);
  });

  it("share price from the latest sample at or before the point, with its own block", () => {
    expect(real[0]!.skusdSharePrice).toEqual({
      kusdPerShare: 1.05,
      blockNumber: 11,
      timestamp: new Date(t[11] * 1000).toISOString(),
    });
    expect(real[2]!.skusdSharePrice?.blockNumber).toBe(11);
  });

  it("redemptions counted once, in the period they happened", () => {
    expect(points.map((p) => p.redemptions.count)).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    expect(points[1]!.redemptions).toMatchObject({ kusd: 200, usdc: 199, fromBlock: 20, toBlock: 20 });
  });

  it("a carried day repeats the previous point's block and state, with no redemptions and no window", () => {
    const [tuesday, wednesday] = [points[1]!, points[2]!];
    const state = ({ period: _p, carried: _c, redemptions: _r, ...rest }: (typeof points)[number]) => rest;
    expect(wednesday.carried).toBe(true);
    expect(state(wednesday)).toEqual(state(tuesday));
    expect(wednesday.redemptions).toEqual({ count: 0, kusd: 0, usdc: 0, fromBlock: null, toBlock: null });
    expect(wednesday.period!.start).toBe(new Date((MON + 2 * DAY) * 1000).toISOString());
  });

  it("every point matches the published schema", () => {
    for (const p of points) expect(() => HistoryPointSchema.parse(p)).not.toThrow();
  });

  it("no share price and a null ratio before anything happened", () => {
    const [p] = buildHistory(planPoints("BLOCKS", { fromBlock: 5n, toBlock: 5n, step: 1n }, []), rows);
    expect(p).toMatchObject({
      kusdSupply: 0,
      backingRatio: null,
      skusdSharePrice: null,
      timestamp: null,
      carried: false,
    });
  });
});
