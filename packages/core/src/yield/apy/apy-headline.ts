/**
 * The yield report's headline (spec 2.4 rules 1–3): the modeled forward rate of the deployed book
 * and its inputs as published. The incentive escrow is never in it; sources (apy-sources.ts) shows
 * the model's steps and framing (apy-framing.ts) how to read it.
 */
import { z } from "zod";
import { pct } from "../../reserves/solvency-formulas.js";
import { round } from "../../reserves/units.js";
import { isoTimeSchema, pctTextSchema } from "../../schema-primitives.js";
import type { ApyFigures } from "./apy-figures.js";
import { FUNDING_WINDOW_DAYS } from "./apy-formula.js";
import { FundingRatesSchema, fundingRegime } from "./apy-funding.js";
import type { ApyInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";
import { LstYieldsSchema } from "./apy-staking.js";

const expected = Fraction.nullable().describe(
  "L/(L+1) × (staking yield + trailing funding) × (1 − strategy cost) × (1 − insurance allocation) × (1 − protocol fee); null when the venue or the LST rates are unknown",
);

export const HeadlineSchema = z.strictObject({
  apy: z.number().nullable().describe("expectedAPY in percent, 4 decimals"),
  expectedAPY: expected,
  organicAPY: expected.describe("the same value as expectedAPY"),
  expectedAPYPct: pctTextSchema.nullable(),
  organicAPYPct: pctTextSchema.nullable(),
  basis: z.literal("deployed"),
  modeled: z.literal(true),
  isLive: z.boolean().describe("false when the venue could not be read"),
  source: z.enum(["live", "unavailable"]),
  regime: z.enum(["negative-funding", "neutral-funding", "positive-funding"]).nullable(),
  fundingRate: Fraction.nullable().describe("the trailing funding mean used: mean hourly rate over the window × 8760"),
  stakingYield: Fraction.nullable().describe("liquid-staking yield: 7-day simple moving average, mean over the LSTs"),
  stakingYieldPct: pctTextSchema.nullable(),
  hedgeVenue: z.string(),
  bestFundingVenue: z.string().nullable(),
  fundingRates: FundingRatesSchema,
  lstYields: LstYieldsSchema,
  timestamp: isoTimeSchema,
  timestampUTC: isoTimeSchema,
  updatedAt: isoTimeSchema,
  protocolFee: Fraction,
  feePhase: z.string(),
  methodology: z.string(),
});
export type Headline = z.infer<typeof HeadlineSchema>;

export function buildHeadline(i: ApyInputs, f: ApyFigures): Headline {
  const h = f.model;
  const live = i.venue.error === null;
  return {
    apy: h ? round(h.expectedAPY * 100, 4) : null,
    expectedAPY: h ? round(h.expectedAPY, 8) : null,
    organicAPY: h ? round(h.expectedAPY, 8) : null,
    expectedAPYPct: h ? pct(h.expectedAPY) : null,
    organicAPYPct: h ? pct(h.expectedAPY) : null,
    basis: "deployed",
    modeled: true,
    isLive: live,
    source: live ? "live" : "unavailable",
    regime: fundingRegime(f.funding.annual),
    fundingRate: round(f.funding.annual, 8),
    stakingYield: round(f.staking.stakingYield, 8),
    stakingYieldPct: pct(f.staking.stakingYield),
    hedgeVenue: i.venue.name,
    bestFundingVenue: f.funding.best?.venue ?? null,
    fundingRates: f.funding.quotes,
    lstYields: f.staking.lstYields,
    timestamp: f.timestamp,
    timestampUTC: f.timestamp,
    updatedAt: f.timestamp,
    protocolFee: i.policy.protocolFee,
    feePhase: i.policy.feePhase,
    methodology: `expectedAPY = L/(L+1) × (staking yield + trailing funding) × (1 − strategy cost) × (1 − insurance allocation) × (1 − protocol fee); L = min(12, 1.5 + funding × 10); funding = mean of the venue's hourly funding over ${FUNDING_WINDOW_DAYS} days × 8760; staking yield = 7-day simple moving average of the LSTs' daily exchange-rate growth × 365. The incentive escrow is not in the headline.`,
  };
}
