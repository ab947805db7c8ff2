/**
 * sources (spec 2.4): the headline's model step by step (L, L/(L+1), gross, after strategy cost)
 * and where each input was read, so the headline can be recomputed by hand.
 */
import { z } from "zod";
import { round } from "../../reserves/units.js";
import type { ApyFigures } from "./apy-figures.js";
import { FUNDING_WINDOW_DAYS } from "./apy-formula.js";
import type { ApyInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";
import { stakingSourceText } from "./apy-staking.js";

const modelFigure = (digits: number) =>
  z.number().nullable().describe(`null when the headline is unknown; ${digits} decimals`);

export const SourcesSchema = z.strictObject({
  stakingYield: Fraction.nullable(),
  fundingRate: Fraction.nullable(),
  stakingSource: z.string().describe("where each LST's exchange rate is observed"),
  fundingSource: z.string(),
  fundingWindowDays: z.int(),
  fundingEntries: z.int().describe("hourly funding records in the window"),
  leverage: modelFigure(6).describe("L = min(12, 1.5 + funding × 10)"),
  carryMultiplier: modelFigure(8).describe("L/(L+1)"),
  grossAPY: modelFigure(8),
  strategyCostFraction: Fraction,
  strategyNetAPY: modelFigure(8),
  insuranceAllocation: Fraction,
  protocolFee: Fraction,
  feePhase: z.string(),
});
export type Sources = z.infer<typeof SourcesSchema>;

export function buildSources(i: ApyInputs, f: ApyFigures): Sources {
  const h = f.model;
  return {
    stakingYield: round(f.staking.stakingYield, 8),
    fundingRate: round(f.funding.annual, 8),
    stakingSource: stakingSourceText(i.lsts),
    fundingSource: `${i.venue.url ?? "no venue"} fundingHistory ${i.venue.coin}`,
    fundingWindowDays: FUNDING_WINDOW_DAYS,
    fundingEntries: f.funding.hourlyRates.length,
    leverage: h ? round(h.leverage, 6) : null,
    carryMultiplier: h ? round(h.carryMultiplier, 8) : null,
    grossAPY: h ? round(h.grossAPY, 8) : null,
    strategyCostFraction: i.policy.strategyCostFraction,
    strategyNetAPY: h ? round(h.strategyNetAPY, 8) : null,
    insuranceAllocation: i.policy.insuranceAllocation,
    protocolFee: i.policy.protocolFee,
    feePhase: i.policy.feePhase,
  };
}
