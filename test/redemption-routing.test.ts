import { describe, expect, it } from "vitest";
import { maxRedeemableKusd, payoutUsdc, planRedemption, redeemFee, redemptionDepth, type PsmReserve } from "../api/reserves/redemption-routing.js";
import { REDEEM_FEE_TIERS } from "../devnet/history.js";

const u = (n: number) => BigInt(Math.round(n * 1e6));
const k = (n: number) => BigInt(n) * 10n ** 18n;
const psms: PsmReserve[] = [
  { key: "psmMint", address: "0x000000000000000000000000000000000000000a", reserveUsdc: u(600_000), canServeRedemptions: true },
  { key: "psmRetiredMint", address: "0x000000000000000000000000000000000000000b", reserveUsdc: u(200_000), canServeRedemptions: true },
  { key: "psmRedeemReserve", address: "0x000000000000000000000000000000000000000c", reserveUsdc: u(50_000), canServeRedemptions: true },
];

describe("redemption routing (spec 2.3 redemptionDepth)", () => {
  it("rule 1 and 2: instant capacity is the deepest reserve, total reachable is the sum", () => {
    const d = redemptionDepth(psms);
    expect(d.instantSingleTransactionUsdc).toBe(u(600_000));
    expect(d.deepestLegAddress).toBe(psms[0]!.address);
    expect(d.totalReachableUsdc).toBe(u(850_000));
    expect(d.totalReachableRequiresSequentialTransactions).toBe(true);
  });

  it("charges the PSM's tier fee: 10 bps below 50k USDC, 8 to 250k, 7 to 1M, 5 above", () => {
    expect(redeemFee(k(10_000), REDEEM_FEE_TIERS).bps).toBe(10n);
    expect(redeemFee(k(100_000), REDEEM_FEE_TIERS).bps).toBe(8n);
    expect(redeemFee(k(500_000), REDEEM_FEE_TIERS).bps).toBe(7n);
    expect(redeemFee(k(2_000_000), REDEEM_FEE_TIERS).bps).toBe(5n);
    expect(payoutUsdc(k(10_000), REDEEM_FEE_TIERS)).toBe(u(9_990));
  });

  it("finds the largest single redemption a reserve can pay", () => {
    const max = maxRedeemableKusd(u(50_000), REDEEM_FEE_TIERS);
    expect(payoutUsdc(max, REDEEM_FEE_TIERS)).toBeLessThanOrEqual(u(50_000));
    expect(payoutUsdc(max + 1n, REDEEM_FEE_TIERS)).toBeGreaterThan(u(50_000));
  });

  it("rule 4: routes to the smallest reserve that fully covers the amount", () => {
    expect(planRedemption(k(30_000), psms, REDEEM_FEE_TIERS).legs.map((l) => l.key)).toEqual(["psmRedeemReserve"]);
    expect(planRedemption(k(120_000), psms, REDEEM_FEE_TIERS).legs.map((l) => l.key)).toEqual(["psmRetiredMint"]);
    expect(planRedemption(k(400_000), psms, REDEEM_FEE_TIERS).legs.map((l) => l.key)).toEqual(["psmMint"]);
  });

  it("rule 4: splits a larger amount deepest first, in sequential transactions, and names any shortfall", () => {
    const plan = planRedemption(k(700_000), psms, REDEEM_FEE_TIERS);
    expect(plan.legs.map((l) => l.key)).toEqual(["psmMint", "psmRetiredMint"]);
    expect(plan.sequentialTransactions).toBe(true);
    expect(plan.legs[0]!.usdcOut).toBeLessThanOrEqual(u(600_000));
    expect(plan.kusdRouted).toBe(k(700_000));
    const tooMuch = planRedemption(k(900_000), psms, REDEEM_FEE_TIERS);
    expect(tooMuch.legs).toHaveLength(3);
    expect(tooMuch.shortfallKusd).toBeGreaterThan(0n);
    expect(tooMuch.legs.reduce((a, l) => a + l.usdcOut, 0n)).toBeLessThanOrEqual(u(850_000));
  });

  it("skips PSMs that cannot serve redemptions (paused)", () => {
    const paused = psms.map((p) => (p.key === "psmRedeemReserve" ? { ...p, canServeRedemptions: false } : p));
    expect(planRedemption(k(30_000), paused, REDEEM_FEE_TIERS).legs.map((l) => l.key)).toEqual(["psmRetiredMint"]);
  });
});
