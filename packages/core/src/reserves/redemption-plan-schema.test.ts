import { describe, expect, it } from "vitest";
import { buildRedemptionPlanReport, feeRuleMismatch, RedemptionPlanSchema } from "./redemption-plan-schema.js";
import type { FeeSchedule, PsmReserve } from "./redemption-routing.js";

// The ladder every deployed PSM is configured with: a flat 10 bps, and 8 / 7 / 5 bps from
// 50,000 / 250,000 / 1,000,000 USDC (6 decimals), stored largest first.
const schedule = (version: FeeSchedule["version"]): FeeSchedule => ({
  version,
  tiers: [
    { threshold: 1_000_000_000_000n, feeBps: 5n },
    { threshold: 250_000_000_000n, feeBps: 7n },
    { threshold: 50_000_000_000n, feeBps: 8n },
  ],
  swapFeeBps: 10n,
  virtualPegEnabled: false,
  virtualPegFeeBps: 0n,
});
const LIVE = "0x000000000000000000000000000000000000000a";
const V1 = "0x000000000000000000000000000000000000000c";
const USDC = "0x0000000000000000000000000000000000000003";
const reserves = (livePaused = false): PsmReserve[] => [
  {
    key: "psmMint",
    address: LIVE,
    reserveUsdc: 600_000_000_000n,
    canServeRedemptions: !livePaused,
    fees: schedule("live"),
  },
  { key: "psmRedeemReserve", address: V1, reserveUsdc: 100_000_000n, canServeRedemptions: true, fees: schedule("v1") },
];
const quote = (value: bigint) => ({ value, command: (field: string) => `cast call …  # ${field} = ${value}` });
const inputs = (amount: string, getFee: bigint, livePaused = false) => ({
  blockNumber: 7n,
  block: { number: 7, hash: `0x${"cd".repeat(32)}` as const, timestamp: 1_780_000_000 },
  network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` as const },
  amount,
  usdc: USDC as `0x${string}`,
  commandRpcUrl: "https://mainnet.base.org",
  reserves: reserves(livePaused),
  getFees: [quote(getFee)],
});

describe("buildRedemptionPlanReport", () => {
  it("1,000 kUSD by hand: the live PSM alone covers it, 10 bps flat (1,000 USDC is under the first tier), 999 USDC out", () => {
    const plan = buildRedemptionPlanReport(inputs("1000", 1_000_000n));
    expect(plan).toMatchObject({
      blockNumber: 7,
      amountKUSD: "1000",
      fullyRoutable: true,
      shortfallKUSD: 0,
      sequentialTransactions: false,
    });
    expect(plan.transactions).toEqual([
      expect.objectContaining({
        step: 1,
        psm: "psmMint",
        psmVersion: "live",
        to: LIVE,
        kusdIn: 1000,
        kusdInWei: "1000000000000000000000",
        feeBps: 10,
        feeKUSD: 1,
        usdcOut: 999,
        call: `swapKUSDForStable(${USDC}, 1000000000000000000000)`,
      }),
    ]);
    expect(plan.transactions[0]!.verifyFee).toMatch(/feeKUSD = kusdInWei × 10 \/ 10000 = 1000000$/);
    expect(RedemptionPlanSchema.parse(plan)).toEqual(plan);
  });

  it("pins the block and the network document beside the plan", () => {
    const plan = buildRedemptionPlanReport(inputs("1000", 1_000_000n));
    expect(Object.keys(plan).at(-1)).toBe("pins");
    expect(plan.pins).toEqual({
      report: "redemption-plan",
      network: { chainId: 8453, documentSha256: `0x${"ab".repeat(32)}` },
      block: { number: 7, hash: `0x${"cd".repeat(32)}`, timestamp: 1_780_000_000 },
      venue: null,
    });
  });
});

describe("feeRuleMismatch", () => {
  it("none when getFee is the tier's fee on the size in USDC units (live: 1,000 USDC × 10 bps = 1 USDC)", () => {
    expect(feeRuleMismatch(inputs("1000", 1_000_000n))).toBeNull();
  });

  it("names the PSM, what it quotes and what the rule gives when they disagree", () => {
    expect(feeRuleMismatch(inputs("1000", 999_999n))).toEqual({ psm: LIVE, onChain: 999_999n, expected: 1_000_000n });
  });

  it("PSM v1 quotes the redemption itself: 50 kUSD as raw wei reaches the 5 bps tier, 0.025 kUSD", () => {
    // The live PSM paused: only the v1 PSM serves, and it compares 50e18 with thresholds in USDC units.
    const v1 = inputs("50", 25_000_000_000_000_000n, true);
    expect(feeRuleMismatch(v1)).toBeNull();
    expect(buildRedemptionPlanReport(v1).transactions[0]).toMatchObject({
      psm: "psmRedeemReserve",
      feeBps: 5,
      feeKUSD: 0.025,
    });
  });
});
