/**
 * The incentive escrow's terms as read at the report's block (spec 2.4 rule 6), in USD and
 * fractions, computed once for both the incentive section and the genesis cohort. The schedule
 * needs all of target, cap, end, balance and TVL: with any of them unread it is unknown.
 */
import { toUnits } from "../../reserves/units.js";
import { incentiveRates } from "./apy-formula.js";
import type { EscrowInputs } from "./apy-inputs.js";
import { DAY } from "./apy-json-types.js";
import { genesisCohort } from "./cohort.js";

/** The reads the schedule cannot do without, in USD and fractions. */
export type EscrowSchedule = {
  targetApy: number;
  tvlCapUsd: number;
  endsAt: number;
  balanceUsd: number;
  tvlUsd: number;
};

export type EscrowTerms = {
  /** null when any read the schedule needs failed. */
  schedule: EscrowSchedule | null;
  /** Days until endsAt, never negative; 0 when the schedule is unknown. */
  daysLeft: number;
  /** The headline the escrow tops up: expectedAPY, or 0 when the headline is unknown. */
  baseApy: number;
  rates: ReturnType<typeof incentiveRates> | null;
  cohort: ReturnType<typeof genesisCohort> | null;
  /** The operator's skUSD in kUSD; null when a read it needs failed. */
  insiderUsd: number | null;
  /** A YieldDistributed into skUSD within the last 8 days. */
  distributionLive: boolean;
};

function scheduleOf({
  targetApyBps,
  tvlCap,
  endsAt,
  balance,
  totalAssets,
}: EscrowInputs["reads"]): EscrowSchedule | null {
  if (targetApyBps === null || tvlCap === null || endsAt === null || balance === null || totalAssets === null)
    return null;
  return {
    targetApy: Number(targetApyBps) / 10_000,
    tvlCapUsd: toUnits(tvlCap, 18),
    endsAt: Number(endsAt),
    balanceUsd: toUnits(balance, 18),
    tvlUsd: toUnits(totalAssets, 18),
  };
}

export function escrowTerms(e: EscrowInputs, now: number, baseApy: number): EscrowTerms {
  const { totalAssets, insiderShares, totalSupply } = e.reads;
  const s = scheduleOf(e.reads);
  const daysLeft = s ? Math.max(0, (s.endsAt - now) / DAY) : 0;
  // Shares to kUSD at the vault's own ratio; a zero supply has no ratio.
  const insiderUsd =
    insiderShares !== null && totalAssets !== null && totalSupply
      ? toUnits((totalAssets * insiderShares) / totalSupply, 18)
      : null;
  return {
    schedule: s,
    daysLeft,
    baseApy,
    rates: s
      ? incentiveRates({
          targetApy: s.targetApy,
          baseApy,
          eligibleTvl: s.tvlUsd,
          tvlCap: s.tvlCapUsd,
          escrowBalance: s.balanceUsd,
          daysLeft,
        })
      : null,
    cohort: s
      ? genesisCohort({
          targetTotalApy: s.targetApy,
          baseApy,
          escrowBalanceUsd: s.balanceUsd,
          tvlCapUsd: s.tvlCapUsd,
          stakedUsd: s.tvlUsd,
          insiderStakedUsd: insiderUsd ?? 0,
          daysRemaining: daysLeft,
        })
      : null,
    insiderUsd,
    distributionLive: e.lastYield ? now - Number(e.lastYield.timestamp) <= 8 * DAY : false,
  };
}
