/**
 * The funding side of the yield report: the trailing funding mean the headline uses (rule 2's
 * 60-day window), and the venues' current rates for the hedged coin. Empty venue reads give a
 * null mean, never a zero.
 */
import { z } from "zod";
import { annualiseMeanRate, annualRate } from "./apy-formula.js";
import type { VenueInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";

export const FundingQuoteSchema = z.strictObject({
  venue: z.string(),
  rate: z.number().describe("the current rate per funding interval"),
  annual: Fraction.describe("rate × intervals per year"),
  interval: z.enum(["1h", "8h"]),
});
export type FundingQuote = z.infer<typeof FundingQuoteSchema>;

export const FundingRatesSchema = z
  .record(z.string(), FundingQuoteSchema)
  .describe("the venues' current funding for the hedged coin, keyed by venue id");

export type FundingMeasures = {
  hourlyRates: readonly number[];
  /** The trailing mean, annualised; null when the venue gave no history. */
  annual: number | null;
  quotes: Record<string, FundingQuote>;
  /** The venue paying the most now. */
  best: FundingQuote | null;
};

export function measureFunding(venue: VenueInputs): FundingMeasures {
  const quotes: Record<string, FundingQuote> = {};
  for (const [coin, venues] of venue.predicted) {
    if (coin !== venue.coin) continue;
    for (const [id, v] of venues) {
      // A venue that names no interval pays every 8 hours.
      const hours = v.fundingIntervalHours ?? 8;
      quotes[id] = {
        venue: id,
        rate: Number(v.fundingRate),
        annual: annualRate(Number(v.fundingRate), hours),
        interval: hours === 1 ? "1h" : "8h",
      };
    }
  }
  return {
    hourlyRates: venue.hourlyFundingRates,
    annual: annualiseMeanRate(venue.hourlyFundingRates, 1),
    quotes,
    best: Object.values(quotes).sort((a, b) => b.annual - a.annual)[0] ?? null,
  };
}

/** The funding regime the trailing mean puts the book in. */
export function fundingRegime(annual: number | null) {
  if (annual === null) return null;
  return annual < 0 ? "negative-funding" : annual < 0.05 ? "neutral-funding" : "positive-funding";
}
