/**
 * realized (spec 2.4 rules 4 and 7): what skUSD's share price actually did over the last 30 days,
 * annualised on the same scale as expectedAPY. It is also what the incentive section reports as
 * paid, since the escrow's distributions land in that share price.
 */
import { z } from "zod";
import { isoTime, round } from "../../reserves/units.js";
import { isoTimeSchema } from "../../schema-primitives.js";
import { REALIZED_WINDOW_DAYS, realizedAnnualized } from "./apy-formula.js";
import type { ApyInputs } from "./apy-inputs.js";
import { BlockNumber, Fraction } from "./apy-json-types.js";

export type RealizedYield = ReturnType<typeof realizedAnnualized>;

/** Null when skUSD has no share price yet. */
export function measureRealized({ latest, windowStart }: ApyInputs["sharePrices"]): RealizedYield | null {
  if (!latest || !windowStart) return null;
  return realizedAnnualized(
    { t: Number(windowStart.timestamp), assetsPerShare: windowStart.assetsPerShare },
    { t: Number(latest.timestamp), assetsPerShare: latest.assetsPerShare },
  );
}

/** The annualized yield when known: what stakers were actually paid. */
export const paidApy = (realized: RealizedYield | null): number | null => realized?.annualized ?? null;

export const RealizedSchema = z.strictObject({
  available: z.boolean(),
  annualized: Fraction.nullable().describe(
    "(share price now / share price at the window's start − 1) × 365 / days between them",
  ),
  windowDays: z.int(),
  windowClamped: z
    .boolean()
    .describe(
      "true when the span measured (measuredDays) differs from windowDays by more than a day: the history is shorter, or the nearest observation before the window's start is older",
    ),
  measuredDays: z.number().nullable(),
  asOf: isoTimeSchema.nullable().describe("the latest share price's time"),
  fromBlock: BlockNumber.nullable(),
  toBlock: BlockNumber.nullable(),
  source: z.string(),
  note: z.string(),
});
export type Realized = z.infer<typeof RealizedSchema>;

export function buildRealized(
  realized: RealizedYield | null,
  { latest, windowStart }: ApyInputs["sharePrices"],
): Realized {
  return {
    available: realized !== null && realized.annualized !== null,
    annualized: realized?.annualized == null ? null : round(realized.annualized, 8),
    windowDays: REALIZED_WINDOW_DAYS,
    windowClamped: realized?.windowClamped ?? true,
    measuredDays: realized ? round(realized.days, 3) : null,
    asOf: latest ? isoTime(Number(latest.timestamp)) : null,
    fromBlock: windowStart ? Number(windowStart.blockNumber) : null,
    toBlock: latest ? Number(latest.blockNumber) : null,
    source: "indexed skUSD convertToAssets(1e24) observations (totalAssets / 1e18 per share of 1e24 units)",
    note: "annualized as growth × 365 / days between the two observations",
  };
}
