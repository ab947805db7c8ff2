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

  it("DAY: one point per UTC day with an indexed block, at its last block", () => {
    const plan = planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null }, known);
    expect(plan.map((p) => p.blockNumber)).toEqual([11n, 20n, 30n]);
    expect(plan[0]!.period).toEqual({ start: MON, end: MON + DAY });
    expect(plan[0]!.windowFrom).toBe(10n);
  });

  it("WEEK: weeks start on Monday", () => {
    const plan = planPoints("WEEK", { fromBlock: 0n, toBlock: 100n, step: null }, known);
    expect(plan.map((p) => p.blockNumber)).toEqual([20n, 30n]);
    expect(plan[1]!.period).toEqual({ start: MON + 7 * DAY, end: MON + 14 * DAY });
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
  });
});

describe("buildHistory", () => {
  const points = buildHistory(planPoints("DAY", { fromBlock: 0n, toBlock: 100n, step: null }, knownBlocks(rows)), rows);

  it("running supply, outstanding and USDC per PSM at each point's block", () => {
    expect(points.map((p) => p.kusdSupply)).toEqual([1000, 1500, 1400]);
    // Outstanding: supply minus the 200 kUSD the reserve PSM keeps from block 20 on.
    expect(points.map((p) => p.kusdOutstanding)).toEqual([1000, 1300, 1200]);
    expect(points[1]!.psmUSDC).toEqual({ psmMint: 1500, psmRetiredMint: 0, psmRedeemReserve: 101, total: 1601 });
    expect(points[1]!.kusdOutstandingWei).toBe(parseEther("1300").toString());
  });

  it("backing ratio = PSM USDC / outstanding kUSD", () => {
    expect(points[0]!.backingRatio).toBe(1);
    expect(points[1]!.backingRatio).toBeCloseTo(1601 / 1300, 8);
  });

  it("share price from the latest sample at or before the point, with its own block", () => {
    expect(points[0]!.skusdSharePrice).toEqual({
      kusdPerShare: 1.05,
      blockNumber: 11,
      timestamp: new Date(t[11] * 1000).toISOString(),
    });
    expect(points[2]!.skusdSharePrice?.blockNumber).toBe(11);
  });

  it("redemptions counted once, in the period they happened", () => {
    expect(points.map((p) => p.redemptions.count)).toEqual([0, 1, 0]);
    expect(points[1]!.redemptions).toMatchObject({ kusd: 200, usdc: 199, fromBlock: 20, toBlock: 20 });
  });

  it("every point matches the published schema", () => {
    for (const p of points) expect(() => HistoryPointSchema.parse(p)).not.toThrow();
  });

  it("no share price and a null ratio before anything happened", () => {
    const [p] = buildHistory(planPoints("BLOCKS", { fromBlock: 5n, toBlock: 5n, step: 1n }, []), rows);
    expect(p).toMatchObject({ kusdSupply: 0, backingRatio: null, skusdSharePrice: null, timestamp: null });
  });
});
