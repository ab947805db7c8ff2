/**
 * framing (spec 2.4): how to read the headline. It models the deployed book forward; the
 * through-cycle band shows it across the window's funding, and realized is what was paid.
 */
import { z } from "zod";
import type { ApyFigures } from "./apy-figures.js";
import type { ApyInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";
import { throughCycleBandPct } from "./cohort.js";

export const FramingSchema = z.strictObject({
  kind: z.literal("modeled-forward-rate"),
  // Two numbers, low first: an array of length 2 rather than a tuple, whose JSON Schema form
  // (prefixItems with items: false) OpenAPI linters read as an array without items.
  throughCycleBandPct: z
    .array(z.number())
    .length(2)
    .nullable()
    .describe("the headline at the 10th and 90th percentile of the window's hourly funding, in percent, low first"),
  throughCycleBasis: z.string(),
  measuredVenueBasis: z.string(),
  headline: z.string(),
  deployedBasis: z.string(),
  withdrawnModeledTarget: z.string(),
  realizedToDate: Fraction.nullable().describe("realized.annualized, unrounded"),
});
export type Framing = z.infer<typeof FramingSchema>;

export function buildFraming(i: ApyInputs, f: ApyFigures): Framing {
  const stakingYield = f.staking.stakingYield;
  return {
    kind: "modeled-forward-rate",
    throughCycleBandPct:
      stakingYield === null ? null : throughCycleBandPct(f.funding.hourlyRates, { stakingYield, ...i.policy }),
    throughCycleBasis:
      "the headline recomputed at the 10th and 90th percentile of the window's hourly funding, annualised",
    measuredVenueBasis:
      "measuredVenue.netApyAtMeasuredRatio: the same formula at the hedge account's implied leverage instead of L",
    headline: "expectedAPY models the deployed book forward; realized is what the staking vault's share price did",
    deployedBasis: "the hedge as configured, at the model leverage L",
    withdrawnModeledTarget: "the flat 3x modeled target was withdrawn on 2026-07-28 and does not return",
    realizedToDate: f.realized?.annualized ?? null,
  };
}
