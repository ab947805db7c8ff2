/**
 * GET /api/apy (spec 2.4), composed from its sections. Pure: every input (the venue's reads, the
 * indexed LST rates and share prices, the escrow's pinned reads) is passed in. ApyReportSchema
 * is the response's contract: strict objects in the published key order, so a field gained or
 * lost by a builder fails validation instead of drifting from the published document.
 */
import { z } from "zod";
import { round } from "../../reserves/units.js";
import { escrowTerms } from "./apy-escrow.js";
import { computeApyFigures } from "./apy-figures.js";
import { buildFraming, FramingSchema } from "./apy-framing.js";
import { buildGenesisCohort, GenesisCohortSchema } from "./apy-genesis-cohort.js";
import { buildHeadline, HeadlineSchema } from "./apy-headline.js";
import { buildIncentive, IncentiveSchema } from "./apy-incentive.js";
import type { ApyInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";
import { buildMarketContext, MarketContextSchema } from "./apy-market-context.js";
import { ApyPinsSchema, apyPins } from "./apy-pins.js";
import { buildRealized, paidApy, RealizedSchema } from "./apy-realized.js";
import { buildSources, SourcesSchema } from "./apy-sources.js";
import { buildMeasuredVenue, buildVenueLeverage, MeasuredVenueSchema, VenueLeverageSchema } from "./apy-venue.js";

export const ApyReportSchema = z
  .strictObject({
    ...HeadlineSchema.shape,
    sources: SourcesSchema,
    avgAnnualFunding: Fraction.nullable().describe("fundingRate under its earlier name"),
    framing: FramingSchema,
    marketContext: MarketContextSchema,
    realized: RealizedSchema,
    venueLeverage: VenueLeverageSchema,
    measuredVenue: MeasuredVenueSchema,
    incentive: IncentiveSchema.nullable().describe("null when the deployment has no incentive escrow"),
    genesisCohort: GenesisCohortSchema.nullable().describe(
      "null without an escrow or when its schedule could not be read",
    ),
    pins: ApyPinsSchema,
  })
  .meta({
    description:
      "The yield report (spec 2.4): the modeled forward APY of the deployed book, its inputs, the realized yield and the incentive escrow.",
  });
export type ApyReport = z.infer<typeof ApyReportSchema>;

/** The escrow's two sections; both null when the deployment has none. */
function buildEscrowSections(i: ApyInputs, baseApy: number, paid: number | null) {
  if (!i.escrow) return { incentive: null, genesisCohort: null };
  const terms = escrowTerms(i.escrow, i.now, baseApy);
  return { incentive: buildIncentive(i.escrow, terms, paid, i), genesisCohort: buildGenesisCohort(i.escrow, terms, i) };
}

export function buildApyReport(i: ApyInputs): ApyReport {
  const f = computeApyFigures(i);
  return {
    ...buildHeadline(i, f),
    sources: buildSources(i, f),
    avgAnnualFunding: round(f.funding.annual, 8),
    framing: buildFraming(i, f),
    marketContext: buildMarketContext(i.marketPeers, f.timestamp),
    realized: buildRealized(f.realized, i.sharePrices),
    venueLeverage: buildVenueLeverage(i, f),
    measuredVenue: buildMeasuredVenue(i, f),
    ...buildEscrowSections(i, f.model?.expectedAPY ?? 0, paidApy(f.realized)),
    pins: apyPins(i),
  };
}
