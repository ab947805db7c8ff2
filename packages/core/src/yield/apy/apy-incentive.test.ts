/** The incentive escrow and the genesis cohort (rules 3 and 6) from hand-made reads. */
import { describe, expect, it } from "vitest";
import { escrowTerms } from "./apy-escrow.js";
import { buildGenesisCohort } from "./apy-genesis-cohort.js";
import { buildIncentive } from "./apy-incentive.js";
import { fixture, NOW } from "./apy-report.fixture.js";

const DAY = 86_400;
const sections = (
  edit: (e: NonNullable<ReturnType<typeof fixture>["escrow"]>) => void = () => {},
  baseApy = 0.081,
  paid: number | null = 0.05,
) => {
  const i = fixture();
  const e = i.escrow!;
  edit(e);
  const t = escrowTerms(e, i.now, baseApy);
  return { t, incentive: buildIncentive(e, t, paid, i), cohort: buildGenesisCohort(e, t, i) };
};

describe("incentive", () => {
  it("would pay what the target needs above the base, within what the balance sustains", () => {
    const { incentive } = sections();
    // sustainable = 40,000 / 500,000 × 365 / 73 = 0.40; wanted = 0.12 − 0.081 = 0.039 (book under the cap).
    expect(incentive).toMatchObject({
      active: true,
      wouldPayAPY: 0.039,
      wouldPayAPYPct: "3.90%",
      sustainableAPY: 0.4,
      capBinding: false,
      taperBinding: false,
    });
    // Runway: 40,000 / (0.039 × 500,000 / 365) = 748.72 days from 2027-01-15 (2029-02-02), but the
    // escrow ends on 2027-03-29, so it funds through its end date, not past it.
    expect(incentive).toMatchObject({
      runwayDays: 748.7,
      fundedThrough: "2027-03-29",
      fullRateToTVL: 5_128_205.13,
      minRunwayDays: 30,
    });
    expect(incentive.fundedThrough! <= incentive.endsAt!).toBe(true);
    // totalAPY (realized) is not baseAPY (expected) + incentiveAPY: the note says why.
    expect(incentive.totalAPY).not.toBe(incentive.baseAPY + incentive.incentiveAPY!);
    expect(incentive.totalAPYNote).toMatch(/not baseAPY \+ incentiveAPY/);
    expect(incentive).toMatchObject({
      baseAPY: 0.081,
      baseAPYPct: "8.10%",
      incentiveAPY: 0.05,
      incentiveAPYPct: "5.00%",
      totalAPY: 0.05,
      targetAPY: 0.12,
      targetTotalAPY: 0.12,
    });
    expect(incentive).toMatchObject({
      fundedUSD: 50_000,
      distributedUSD: 10_000,
      escrowBalanceUSD: 40_000,
      eligibleTVL: 500_000,
      tvlCapUSD: 1_000_000,
      endsAt: "2027-03-29",
    });
    expect(incentive).toMatchObject({ observedAtBlock: 2001, rpcUsed: "https://rpc.example", distributionLive: true });
    expect(incentive.lastVaultDistribution).toMatchObject({ date: "2027-01-13", amountKUSD: 500 });
    expect(incentive.verify).toEqual(["cmd targetApyBps", "cmd balance", "cmd tvlCap", "cmd totalAssets"]);
  });

  it("tapers to what the balance sustains when the target needs more", () => {
    // 3,000 left: sustainable = 3,000 / 500,000 × 365 / 73 = 0.03, below the 0.039 wanted; it lasts the 73 days.
    const { incentive } = sections((e) => (e.reads.balance = 3_000n * 10n ** 18n));
    expect(incentive).toMatchObject({ wouldPayAPY: 0.03, sustainableAPY: 0.03, taperBinding: true, runwayDays: 73 });
  });

  it("is unknown, not zero, where a read failed; no distribution in 8 days is said so", () => {
    const { incentive, cohort } = sections((e) => {
      e.reads.targetApyBps = null;
      e.lastYield = { ...e.lastYield!, timestamp: BigInt(NOW - 9 * DAY) };
    });
    expect(incentive).toMatchObject({
      active: false,
      targetAPY: null,
      targetTotalAPY: null,
      wouldPayAPY: null,
      sustainableAPY: null,
      capBinding: null,
      runwayDays: null,
      fundedThrough: null,
      fullRateToTVL: null,
    });
    expect(incentive).toMatchObject({
      escrowBalanceUSD: 40_000,
      distributionLive: false,
      distributionNote: "no distribution into skUSD in the last 8 days",
    });
    expect(cohort).toBeNull();
  });

  it("is inactive once the term has ended", () => {
    const { incentive, cohort } = sections((e) => (e.reads.endsAt = BigInt(NOW - DAY)));
    expect(incentive).toMatchObject({ active: false, wouldPayAPY: 0, sustainableAPY: 0, runwayDays: null });
    expect(cohort).toMatchObject({ active: false, daysRemaining: 0, termDays: 0 });
  });
});

describe("genesis cohort", () => {
  it("seats the book under the cap and splits insider from external stake", () => {
    const { cohort } = sections();
    // insider = 500,000 × 300,000e24 / 500,000e24 = 300,000; term cost = 0.039 × 500,000 × 73/365 = 3,900.
    expect(cohort).toMatchObject({
      active: true,
      targetTotalAPY: 0.12,
      targetTotalAPYPct: "12.00%",
      baseAPY: 0.081,
      subsidyAPY: 0.039,
      deliveredTotalAPY: 0.12,
    });
    expect(cohort).toMatchObject({
      seatedUSD: 500_000,
      roomUSD: 500_000,
      filled: false,
      capBinding: false,
      capEligibleTVL: 1_000_000,
    });
    expect(cohort).toMatchObject({
      insiderStakedUSD: 300_000,
      externalStakedUSD: 200_000,
      termCostUSD: 3_900,
      termDays: 73,
      daysRemaining: 73,
      vestingPeriodSeconds: 604_800,
    });
    // At twice the cap the subsidy halves (0.0195) and the balance still carries it: 0.081 + 0.0195.
    expect(cohort!.deliveredAtBook).toEqual([
      { stakedUSD: 250_000, deliveredTotalAPYPct: "12.00%" },
      { stakedUSD: 500_000, deliveredTotalAPYPct: "12.00%" },
      { stakedUSD: 1_000_000, deliveredTotalAPYPct: "12.00%" },
      { stakedUSD: 2_000_000, deliveredTotalAPYPct: "10.05%" },
    ]);
    expect(cohort!.verify).toEqual(["cmd insiderShares", "cmd yieldVestingPeriod"]);
  });

  it("counts no insider stake when the share supply is unread (and publishes it as unknown)", () => {
    const { cohort } = sections((e) => (e.reads.totalSupply = null));
    expect(cohort).toMatchObject({ insiderStakedUSD: null, externalStakedUSD: 500_000 });
  });
});
