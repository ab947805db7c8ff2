/**
 * incentive (spec 2.4 rules 3 and 6): the skUSD incentive escrow read at the report's block.
 * incentiveAPY is what stakers were actually paid (the realized yield, into which the escrow
 * distributes); wouldPayAPY is what the schedule would pay, never above what the balance
 * sustains. Neither is in the headline.
 */
import { z } from "zod";
import { pct } from "../../reserves/solvency-formulas.js";
import { isoDate, orNull, round, toUnits } from "../../reserves/units.js";
import { addressSchema, hash32Schema, isoDateSchema, pctTextSchema, verifyViaSchema } from "../../schema-primitives.js";
import type { EscrowTerms } from "./apy-escrow.js";
import type { ApyInputs, EscrowInputs } from "./apy-inputs.js";
import { BlockNumber, DAY, Fraction, fixed, pctText } from "./apy-json-types.js";
import { fullRateToTvl } from "./cohort.js";

/** Runway below which the escrow is said to need funding. */
export const MIN_RUNWAY_DAYS = 30;

/** What an escrow section is published with besides the escrow's own reads. */
export type EscrowReport = Pick<ApyInputs, "now" | "blockNumber" | "commandRpcUrl">;

const usd = (raw: bigint | null) => orNull(raw, (x) => toUnits(x, 18));

export const LastDistributionSchema = z.strictObject({
  date: isoDateSchema,
  amountKUSD: z.number(),
  txHash: hash32Schema,
  note: z.string(),
});

function lastDistribution(e: EscrowInputs): z.infer<typeof LastDistributionSchema> | null {
  const y = e.lastYield;
  return y
    ? {
        date: isoDate(Number(y.timestamp)),
        amountKUSD: toUnits(y.assets ?? 0n, 18),
        txHash: y.txHash,
        note: "the latest YieldDistributed on skUSD (indexed), which vests linearly",
      }
    : null;
}

/**
 * totalAPY ≠ baseAPY + incentiveAPY, by construction: baseAPY is the expected base rate (venue
 * funding and staking yield, a model), while totalAPY and incentiveAPY are both the realized share
 * price growth, in which the escrow's distributions and the base yield land together. Public data
 * does not split a realized share price into the two, so no sum is published as if it did.
 */
export const TOTAL_APY_NOTE =
  "totalAPY and incentiveAPY are the realized skUSD yield over the window (base and escrow distributions land in the same share price); baseAPY is the expected base rate from the venue and staking inputs. They are on different bases, so totalAPY is not baseAPY + incentiveAPY; compare totalAPY with targetTotalAPY.";

export const IncentiveSchema = z.strictObject({
  active: z.boolean().describe("days remain and the escrow holds a balance"),
  distributionsFromEscrow: z.literal(true),
  label: z.string(),
  baseAPY: Fraction.describe("expectedAPY, which the escrow tops up (0 when unknown)"),
  baseAPYPct: pctTextSchema,
  incentiveAPY: Fraction.nullable().describe(
    "what stakers actually received: the realized skUSD yield, escrow distributions included",
  ),
  incentiveAPYPct: pctTextSchema.nullable(),
  incentiveNote: z.string(),
  distributionLive: z.boolean().describe("a distribution into skUSD within the last 8 days"),
  lastVaultDistribution: LastDistributionSchema.nullable(),
  distributionNote: z.string(),
  totalAPY: Fraction.nullable().describe(
    "the realized skUSD yield over the window (what stakers received, base and incentive together); see totalAPYNote",
  ),
  totalAPYPct: pctTextSchema.nullable(),
  totalAPYNote: z.string(),
  targetTotalAPY: Fraction.nullable(),
  fullRateToTVL: z
    .number()
    .nullable()
    .describe("the TVL up to which the balance pays the full target for the days remaining"),
  fundedThrough: isoDateSchema
    .nullable()
    .describe("the day the escrow stops paying: now + runwayDays, or endsAt when that comes first"),
  minRunwayDays: z.int(),
  wouldPayAPY: Fraction.nullable().describe(
    "min(what the target needs above the base, what the balance sustains over the days left); conditional",
  ),
  wouldPayAPYPct: pctTextSchema.nullable(),
  sustainableAPY: Fraction.nullable().describe("escrow balance / eligible TVL × 365 / days left"),
  capBinding: z.boolean().nullable(),
  taperBinding: z.boolean().nullable(),
  targetAPY: Fraction.nullable(),
  fundedUSD: z.number().nullable(),
  distributedUSD: z.number().nullable(),
  escrowBalanceUSD: z.number().nullable(),
  escrowAddress: addressSchema,
  escrowToken: addressSchema,
  eligibleVault: addressSchema,
  eligibleTVL: z.number().nullable().describe("skUSD totalAssets / 1e18"),
  tvlCapUSD: z.number().nullable(),
  runwayDays: z.number().nullable(),
  endsAt: isoDateSchema.nullable(),
  observedAtBlock: BlockNumber,
  rpcUsed: z.string(),
  basis: z.string(),
  verify: verifyViaSchema,
});
export type Incentive = z.infer<typeof IncentiveSchema>;

export function buildIncentive(e: EscrowInputs, t: EscrowTerms, paid: number | null, r: EscrowReport): Incentive {
  const { reads } = e;
  const { rates, schedule } = t;
  return {
    active: schedule !== null && t.daysLeft > 0 && schedule.balanceUsd > 0,
    distributionsFromEscrow: true,
    label: "skUSD incentive escrow",
    baseAPY: fixed(t.baseApy, 8),
    baseAPYPct: pctText(t.baseApy),
    incentiveAPY: paid,
    incentiveAPYPct: pct(paid),
    incentiveNote:
      "incentiveAPY is what stakers actually received: the realized skUSD yield, which includes the escrow's distributions",
    distributionLive: t.distributionLive,
    lastVaultDistribution: lastDistribution(e),
    distributionNote: t.distributionLive
      ? "the escrow distributed into skUSD within the last 8 days"
      : "no distribution into skUSD in the last 8 days",
    totalAPY: paid,
    totalAPYPct: pct(paid),
    totalAPYNote: TOTAL_APY_NOTE,
    targetTotalAPY: orNull(reads.targetApyBps, (x) => Number(x) / 10_000),
    fullRateToTVL: schedule
      ? round(fullRateToTvl(schedule.balanceUsd, Math.max(0, schedule.targetApy - t.baseApy), t.daysLeft), 2)
      : null,
    // The escrow pays until its runway or its end date, whichever comes first: never past endsAt.
    fundedThrough:
      rates?.runwayDays != null
        ? isoDate(
            Math.min(
              r.now + Math.floor(rates.runwayDays * DAY),
              reads.endsAt === null ? Number.POSITIVE_INFINITY : Number(reads.endsAt),
            ),
          )
        : null,
    minRunwayDays: MIN_RUNWAY_DAYS,
    wouldPayAPY: rates ? round(rates.wouldPayAPY, 8) : null,
    wouldPayAPYPct: rates ? pct(rates.wouldPayAPY) : null,
    sustainableAPY: rates ? round(rates.sustainableAPY, 8) : null,
    capBinding: rates?.capBinding ?? null,
    taperBinding: rates?.taperBinding ?? null,
    targetAPY: orNull(reads.targetApyBps, (x) => Number(x) / 10_000),
    fundedUSD: usd(reads.totalFunded),
    distributedUSD: usd(reads.totalDistributed),
    escrowBalanceUSD: usd(reads.balance),
    escrowAddress: e.address,
    escrowToken: e.token,
    eligibleVault: e.vault,
    eligibleTVL: usd(reads.totalAssets),
    tvlCapUSD: usd(reads.tvlCap),
    runwayDays: rates === null || rates.runwayDays === null ? null : round(rates.runwayDays, 1),
    endsAt: orNull(reads.endsAt, (x) => isoDate(Number(x))),
    observedAtBlock: Number(r.blockNumber),
    rpcUsed: r.commandRpcUrl,
    basis:
      "wouldPayAPY = min(what the target needs above the base, what the escrow balance sustains over the days left); never above sustainableAPY",
    verify: [e.verifyVia.targetApyBps, e.verifyVia.balance, e.verifyVia.tvlCap, e.verifyVia.totalAssets],
  };
}
