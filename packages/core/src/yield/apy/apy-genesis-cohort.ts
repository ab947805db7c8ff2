/**
 * genesisCohort (spec 2.4): what the incentive escrow delivers to skUSD stakers inside its cap,
 * at today's book and at other book sizes. The cap is not enforced on deposits and accrual is
 * pro rata, so the figures describe the book as a whole, not any one account.
 */
import { z } from "zod";
import { isoDate, orNull, round, toUnits } from "../../reserves/units.js";
import { addressSchema, isoDateSchema, pctTextSchema, verifyViaSchema } from "../../schema-primitives.js";
import type { EscrowTerms } from "./apy-escrow.js";
import type { EscrowReport } from "./apy-incentive.js";
import type { EscrowInputs } from "./apy-inputs.js";
import { BlockNumber, Fraction, fixed, pctText } from "./apy-json-types.js";

export const GenesisCohortSchema = z.strictObject({
  active: z.boolean(),
  distributionLive: z.boolean(),
  label: z.string(),
  targetTotalAPY: Fraction,
  targetTotalAPYPct: pctTextSchema,
  baseAPY: Fraction,
  subsidyAPY: Fraction.describe("target − base"),
  deliveredTotalAPY: Fraction.describe(
    "base + min(subsidy scaled by cap / book, escrow balance / book × 365 / days remaining)",
  ),
  capBinding: z.boolean(),
  fundedUSD: z.number().nullable(),
  escrowAddress: addressSchema,
  escrowToken: addressSchema,
  eligibleVault: addressSchema,
  capEligibleTVL: z.number(),
  seatedUSD: z.number().describe("stake inside the cap"),
  roomUSD: z.number(),
  filled: z.boolean(),
  capEnforceable: z.literal(false),
  perAccountAccrual: z.literal(false),
  vestingPeriodSeconds: z.int().nullable(),
  insiderAddress: addressSchema,
  insiderStakedUSD: z.number().nullable().describe("the operator's skUSD in kUSD"),
  externalStakedUSD: z.number(),
  termCostUSD: z.number(),
  termDays: z.number(),
  endsAt: isoDateSchema,
  daysRemaining: z.int(),
  deliveredAtBook: z
    .array(z.strictObject({ stakedUSD: z.number(), deliveredTotalAPYPct: pctTextSchema }))
    .describe("deliveredTotalAPY in percent at a quarter, half, one and two times the cap"),
  observedAtBlock: BlockNumber,
  rpcUsed: z.string(),
  basis: z.string(),
  verify: verifyViaSchema,
});
export type GenesisCohort = z.infer<typeof GenesisCohortSchema>;

/** null when the escrow's schedule is unknown. */
export function buildGenesisCohort(e: EscrowInputs, t: EscrowTerms, r: EscrowReport): GenesisCohort | null {
  const { schedule: s, cohort: c, daysLeft } = t;
  if (!s || !c) return null;
  return {
    active: daysLeft > 0 && s.balanceUsd > 0,
    distributionLive: t.distributionLive,
    label: "genesis cohort: skUSD stakers inside the incentive cap",
    targetTotalAPY: s.targetApy,
    targetTotalAPYPct: pctText(s.targetApy),
    baseAPY: fixed(t.baseApy, 8),
    subsidyAPY: fixed(c.subsidyAPY, 8),
    deliveredTotalAPY: fixed(c.deliveredTotalAPY, 8),
    capBinding: c.capBinding,
    fundedUSD: orNull(e.reads.totalFunded, (x) => toUnits(x, 18)),
    escrowAddress: e.address,
    escrowToken: e.token,
    eligibleVault: e.vault,
    capEligibleTVL: s.tvlCapUsd,
    seatedUSD: fixed(c.seatedUSD, 2),
    roomUSD: fixed(c.roomUSD, 2),
    filled: c.filled,
    capEnforceable: false,
    perAccountAccrual: false,
    vestingPeriodSeconds: orNull(e.reads.yieldVestingPeriod, Number),
    insiderAddress: e.insider,
    insiderStakedUSD: round(t.insiderUsd, 2),
    externalStakedUSD: fixed(c.externalStakedUSD, 2),
    termCostUSD: fixed(c.termCostUSD, 2),
    termDays: fixed(daysLeft, 2),
    endsAt: isoDate(s.endsAt),
    daysRemaining: Math.floor(daysLeft),
    deliveredAtBook: c.deliveredAtBook,
    observedAtBlock: Number(r.blockNumber),
    rpcUsed: r.commandRpcUrl,
    basis:
      "delivered = base + min(target − base scaled by cap/book, escrow balance / book × 365 / days remaining); the cap is not enforced on deposits and accrual is pro rata, not per account",
    verify: [e.verifyVia.insiderShares, e.verifyVia.yieldVestingPeriod],
  };
}
