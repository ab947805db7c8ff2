import { describe, expect, it } from "vitest";
import {
  type FeeSchedule,
  maxRedeemableKusd,
  mintFee,
  type PsmReserve,
  payoutUsdc,
  planRedemption,
  redeemFee,
  redemptionDepth,
} from "./redemption-routing.js";

// The ladder the operator configured on all three PSMs (operator-repo audits/SCOPE.md): a flat
// 10 bps, and from 50,000 / 250,000 / 1,000,000 USDC (6 decimals) 8 / 7 / 5 bps.
const SWAP_FEE_BPS = 10n;
const FEE_TIERS = [
  { threshold: 1_000_000n * 10n ** 6n, feeBps: 5n },
  { threshold: 250_000n * 10n ** 6n, feeBps: 7n },
  { threshold: 50_000n * 10n ** 6n, feeBps: 8n },
] as const;

const u = (n: number) => BigInt(Math.round(n * 1e6));
const k = (n: number) => BigInt(n) * 10n ** 18n;
const schedule = (version: FeeSchedule["version"]): FeeSchedule => ({
  version,
  tiers: FEE_TIERS,
  swapFeeBps: SWAP_FEE_BPS,
  virtualPegEnabled: false,
  virtualPegFeeBps: 0n,
});
const live = schedule("live");
const v1 = schedule("v1");
const psms: PsmReserve[] = [
  {
    key: "psmMint",
    address: "0x000000000000000000000000000000000000000a",
    reserveUsdc: u(600_000),
    canServeRedemptions: true,
    fees: live,
  },
  {
    key: "psmRetiredMint",
    address: "0x000000000000000000000000000000000000000b",
    reserveUsdc: u(200_000),
    canServeRedemptions: true,
    fees: schedule("v3"),
  },
  {
    key: "psmRedeemReserve",
    address: "0x000000000000000000000000000000000000000c",
    reserveUsdc: u(50_000),
    canServeRedemptions: true,
    fees: v1,
  },
];

describe("redemption routing (spec 2.3 redemptionDepth) with the deployed fee rules", () => {
  it("rule 1 and 2: instant capacity is the deepest reserve, total reachable is the sum", () => {
    const d = redemptionDepth(psms);
    expect(d.instantSingleTransactionUsdc).toBe(u(600_000));
    expect(d.deepestLegAddress).toBe(psms[0]!.address);
    expect(d.totalReachableUsdc).toBe(u(850_000));
    expect(d.totalReachableRequiresSequentialTransactions).toBe(true);
  });

  it("v3 / live: tiers are lower bounds in USDC units, the flat fee below them (memo: 49,999 → 10, 50,000 → 8, 999,999 → 7, 1,000,000 → 5)", () => {
    expect(redeemFee(k(49_999), live).bps).toBe(10n);
    expect(redeemFee(k(50_000), live).bps).toBe(8n);
    expect(redeemFee(k(249_999), live).bps).toBe(8n);
    expect(redeemFee(k(250_000), live).bps).toBe(7n);
    expect(redeemFee(k(999_999), live).bps).toBe(7n);
    expect(redeemFee(k(1_000_000), live).bps).toBe(5n);
    // One wei short of 50,000 kUSD is 49,999.999999 USDC units: still the flat tier.
    expect(redeemFee(k(50_000) - 1n, live).bps).toBe(10n);
    expect(payoutUsdc(k(10_000), live)).toBe(u(9_990));
    expect(mintFee(u(500), live).fee).toBe(u(0.5)); // the memo's 500 USDC mint → 499.5 kUSD
  });

  it("v1: the raw kUSD amount meets the tiers, so every redemption above 1e12 wei pays 5 bps", () => {
    expect(redeemFee(k(10), v1).bps).toBe(5n);
    expect(redeemFee(10n ** 12n - 1n, v1).bps).toBe(7n); // 1e12 − 1 wei ≥ 250,000e6
    expect(redeemFee(5n * 10n ** 10n - 1n, v1).bps).toBe(10n); // below 50,000e6 wei: the flat fee
    expect(mintFee(u(10_000), v1).bps).toBe(10n); // a mint passes USDC units, as v3 does
  });

  it("the virtual peg, when on, overrides tiers and the flat fee", () => {
    expect(redeemFee(k(2_000_000), { ...live, virtualPegEnabled: true, virtualPegFeeBps: 1n }).bps).toBe(1n);
  });

  it("finds the largest single redemption a reserve can pay", () => {
    for (const s of [live, v1]) {
      const max = maxRedeemableKusd(u(50_000), s);
      expect(payoutUsdc(max, s)).toBeLessThanOrEqual(u(50_000));
      expect(payoutUsdc(max + 1n, s)).toBeGreaterThan(u(50_000));
    }
  });

  it("rule 4: routes to the smallest reserve that fully covers the amount", () => {
    expect(planRedemption(k(30_000), psms).legs.map((l) => l.key)).toEqual(["psmRedeemReserve"]);
    expect(planRedemption(k(120_000), psms).legs.map((l) => l.key)).toEqual(["psmRetiredMint"]);
    expect(planRedemption(k(400_000), psms).legs.map((l) => l.key)).toEqual(["psmMint"]);
    // On v1 30,000 kUSD pays 5 bps (15 kUSD), not the 10 bps v3 would charge.
    const [leg] = planRedemption(k(30_000), psms).legs;
    expect(leg!.feeKusd).toBe(k(15));
    expect(leg!.usdcOut).toBe(u(29_985));
    expect(leg!.tierSize).toBe(k(30_000));
  });

  it("rule 4: splits a larger amount deepest first, in sequential transactions, and names any shortfall", () => {
    const plan = planRedemption(k(700_000), psms);
    expect(plan.legs.map((l) => l.key)).toEqual(["psmMint", "psmRetiredMint"]);
    expect(plan.sequentialTransactions).toBe(true);
    expect(plan.legs[0]!.usdcOut).toBeLessThanOrEqual(u(600_000));
    expect(plan.kusdRouted).toBe(k(700_000));
    const tooMuch = planRedemption(k(900_000), psms);
    expect(tooMuch.legs).toHaveLength(3);
    expect(tooMuch.shortfallKusd).toBeGreaterThan(0n);
    expect(tooMuch.legs.reduce((a, l) => a + l.usdcOut, 0n)).toBeLessThanOrEqual(u(850_000));
  });

  it("skips PSMs that cannot serve redemptions (paused)", () => {
    const paused = psms.map((p) => (p.key === "psmRedeemReserve" ? { ...p, canServeRedemptions: false } : p));
    expect(planRedemption(k(30_000), paused).legs.map((l) => l.key)).toEqual(["psmRetiredMint"]);
  });
});
