/**
 * The hedge account as the venue reports it (spec 2.4 rule 5): its implied leverage beside the
 * model's L, and the headline recomputed at that leverage. The venue publishes current state
 * only, so an unreadable venue leaves these null, never guessed.
 */
import { z } from "zod";
import { round } from "../../reserves/units.js";
import { isoTimeSchema } from "../../schema-primitives.js";
import type { ApyFigures } from "./apy-figures.js";
import type { ApyInputs, VenueInputs } from "./apy-inputs.js";
import { Fraction } from "./apy-json-types.js";
import { netApyAtLeverage } from "./cohort.js";

/** Short notional over equity; null when the account is unknown or has no equity. */
function impliedLeverage(venue: VenueInputs): number | null {
  const shortUsd = venue.hedgeAccount?.notionalUsd ?? null;
  const equityUsd = venue.hedgeAccount?.equityUsd ?? null;
  return shortUsd !== null && equityUsd ? shortUsd / equityUsd : null;
}

export const VenueLeverageSchema = z.strictObject({
  modelRule: z.string(),
  modelWouldTransmit: z.number().nullable().describe("the model's L"),
  transmittedByEngine: z.null(),
  priorVenueDefault: z.null(),
  marginSizingAutomated: z.literal(false),
  venueConfigured: z
    .number()
    .nullable()
    .describe("the hedge account's implied leverage (short notional / equity); null when the venue cannot be read"),
  reconciles: z.boolean().nullable().describe("venueConfigured within 25 % of L; null when either is unknown"),
  note: z.string(),
  verify: z.string().nullable().describe("the venue request that returns the hedge account"),
});
export type VenueLeverage = z.infer<typeof VenueLeverageSchema>;

export function buildVenueLeverage(i: ApyInputs, f: ApyFigures): VenueLeverage {
  const { venue } = i;
  const h = f.model;
  const implied = impliedLeverage(venue);
  return {
    modelRule: "L = min(12, 1.5 + funding × 10)",
    modelWouldTransmit: h ? round(h.leverage, 6) : null,
    transmittedByEngine: null,
    priorVenueDefault: null,
    marginSizingAutomated: false,
    venueConfigured: venue.error === null && implied !== null ? round(implied, 4) : null,
    reconciles:
      venue.error === null && implied !== null && h ? Math.abs(implied - h.leverage) / h.leverage <= 0.25 : null,
    note: venue.error
      ? `venue read failed: ${venue.error}`
      : "venueConfigured is the implied leverage (short notional / equity) of the hedge account; reconciles when within 25 % of the model's L",
    verify: venue.url
      ? `curl -s -X POST ${venue.url} -H 'content-type: application/json' -d '{"type":"clearinghouseState","user":"${venue.account}"}'`
      : null,
  };
}

export const MeasuredVenueSchema = z.strictObject({
  available: z.boolean(),
  shortNotionalUsd: z.number().nullable(),
  equityUsd: z.number().nullable(),
  impliedLeverage: z.number().nullable(),
  impliedCarryMultiplier: z.number().nullable().describe("implied / (implied + 1)"),
  shortNotionalEth: z.number().nullable().describe("the size of the account's first position"),
  netApyAtMeasuredRatio: Fraction.nullable().describe("the headline formula at the implied leverage instead of L"),
  note: z.string(),
  asOf: isoTimeSchema.nullable().describe("the report's time when the account was read"),
  source: z.string(),
});
export type MeasuredVenue = z.infer<typeof MeasuredVenueSchema>;

export function buildMeasuredVenue(i: ApyInputs, f: ApyFigures): MeasuredVenue {
  const { venue } = i;
  const account = venue.hedgeAccount;
  const implied = impliedLeverage(venue);
  const { annual: funding } = f.funding;
  const { stakingYield } = f.staking;
  return {
    available: account !== null,
    shortNotionalUsd: account?.notionalUsd ?? null,
    equityUsd: account?.equityUsd ?? null,
    impliedLeverage: implied === null ? null : round(implied, 4),
    impliedCarryMultiplier: implied === null ? null : round(implied / (implied + 1), 6),
    shortNotionalEth: account ? round(Math.abs(account.positions[0]?.size ?? 0), 6) : null,
    netApyAtMeasuredRatio:
      implied !== null && funding !== null && stakingYield !== null
        ? round(netApyAtLeverage(implied, { stakingYield, fundingAnnual: funding, ...i.policy }), 8)
        : null,
    note: account
      ? "the hedge account as the venue reports it now"
      : `venue read failed: ${venue.error ?? "not configured"}`,
    asOf: account ? f.timestamp : null,
    source: `${venue.url ?? "no venue"} clearinghouseState(${venue.account})`,
  };
}
