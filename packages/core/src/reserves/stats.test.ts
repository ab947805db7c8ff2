import { parseEther, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { buildStats, StatsSchema } from "./stats.js";

const inputs = {
  blockNumber: 1234n,
  blockTimestamp: 1_780_000_000,
  psmUsdc: {
    psmMint: parseUnits("600", 6),
    psmRetiredMint: parseUnits("300", 6),
    psmRedeemReserve: parseUnits("100.5", 6),
  },
  psmKusd: [parseEther("10"), parseEther("0"), parseEther("90")],
  kusdSupply: parseEther("1100"),
  verifyVia: ["cast call …"],
  network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` as const },
  blockHash: `0x${"cd".repeat(32)}` as const,
};

describe("buildStats", () => {
  it("sums the three PSMs and subtracts the kUSD they hold from the supply (hand-computed)", () => {
    const s = buildStats(inputs);
    expect(s).toMatchObject({
      blockNumber: 1234,
      psmUSDCLegacy: 100.5,
      psmUSDCMint: 600,
      psmUSDCPrevMint: 300,
      psmUSDC: 1000.5,
      psmReservesUSD: 1000.5,
      kusdSupply: 1100,
    });
    // 1100 − (10 + 0 + 90) = 1000
    expect(s.kusdOutstanding).toBe(1000);
    expect(s.kusdOutstandingWei).toBe(parseEther("1000").toString());
    expect(s.timestamp).toBe(new Date(1_780_000_000 * 1000).toISOString());
  });

  it("publishes no ratio, and matches its schema", () => {
    const s = buildStats(inputs);
    expect(Object.keys(s).some((k) => /ratio/i.test(k))).toBe(false);
    expect(StatsSchema.parse(s)).toEqual(s);
    expect(StatsSchema.safeParse({ ...s, backingRatio: 1 }).success).toBe(false);
  });

  it("pins the block by number, hash and time, and the network document, beside the figures", () => {
    expect(buildStats(inputs).pins).toEqual({
      report: "stats",
      network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` },
      block: { number: 1234, hash: `0x${"cd".repeat(32)}`, timestamp: 1_780_000_000 },
      venue: null,
    });
    // Without the block's hash nothing pins the reads: no block, never a guessed one.
    expect(buildStats({ ...inputs, blockHash: null }).pins.block).toBeNull();
  });
});
