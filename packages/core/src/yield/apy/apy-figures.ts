/**
 * The figures several sections of the yield report share (the funding mean, the staking yield,
 * the modeled headline, the realized yield), computed once so every section publishes the same
 * value.
 */
import { isoTime } from "../../reserves/units.js";
import { headlineApy } from "./apy-formula.js";
import { type FundingMeasures, measureFunding } from "./apy-funding.js";
import type { ApyInputs } from "./apy-inputs.js";
import { measureRealized, type RealizedYield } from "./apy-realized.js";
import { measureStaking, type StakingMeasures } from "./apy-staking.js";

export type HeadlineModel = ReturnType<typeof headlineApy>;

export type ApyFigures = {
  funding: FundingMeasures;
  staking: StakingMeasures;
  /** Rules 1–3; null when either the funding mean or the staking yield is unknown. */
  model: HeadlineModel | null;
  realized: RealizedYield | null;
  /** The report's time, ISO 8601. */
  timestamp: string;
};

export function computeApyFigures(i: ApyInputs): ApyFigures {
  const funding = measureFunding(i.venue);
  const staking = measureStaking(i);
  const model =
    funding.annual !== null && staking.stakingYield !== null
      ? headlineApy({ stakingYield: staking.stakingYield, fundingAnnual: funding.annual, ...i.policy })
      : null;
  return { funding, staking, model, realized: measureRealized(i.sharePrices), timestamp: isoTime(i.now) };
}
