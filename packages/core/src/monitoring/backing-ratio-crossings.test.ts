import { parseEther, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import type { HistoryRows } from "../history/series.js";
import { backingRatioCrossings } from "./backing-ratio-crossings.js";

const T = 1_780_000_000;
// Block 1: 100 kUSD minted for 100 USDC (ratio 1). Block 2: 10 USDC leave the PSM (0.9).
// Block 3: 5 USDC come back (0.95). Block 4: 10 more come in (1.05).
const usdc = (blockNumber: bigint, amount: string) => ({
  blockNumber,
  timestamp: T + Number(blockNumber),
  psmKey: "psmMint" as const,
  token: "USDC" as const,
  delta: parseUnits(amount, 6),
});
const rows: HistoryRows = {
  supply: [{ blockNumber: 1n, timestamp: T + 1, delta: parseEther("100") }],
  psmBalances: [usdc(1n, "100"), usdc(2n, "-10"), usdc(3n, "5"), usdc(4n, "10")],
  sharePrices: [],
  redemptions: [],
};

describe("backingRatioCrossings", () => {
  it("reports the block where the ratio fell under the threshold and the one where it came back", () => {
    const events = backingRatioCrossings(rows, 1, { fromBlock: 0n, toBlock: 10n });
    expect(events.map((e) => [e.blockNumber, e.direction, e.ratio])).toEqual([
      [2, "below", 0.9],
      [4, "restored", 1.05],
    ]);
    expect(events[0]).toMatchObject({ id: "2:below:1", previousRatio: 1, psmUSDC: 90, kusdOutstanding: 100 });
  });

  it("a move that stays below is no new event; a range sees only its own crossings", () => {
    expect(backingRatioCrossings(rows, 1, { fromBlock: 3n, toBlock: 3n })).toEqual([]);
    expect(
      backingRatioCrossings(rows, 0.92, { fromBlock: 0n, toBlock: 10n }).map((e) => [e.blockNumber, e.direction]),
    ).toEqual([
      [2, "below"],
      [3, "restored"],
    ]);
  });

  it("nothing outstanding is not below any threshold", () => {
    expect(backingRatioCrossings({ ...rows, supply: [] }, 1, { fromBlock: 0n, toBlock: 10n })).toEqual([]);
  });
});
