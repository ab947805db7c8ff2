/**
 * The hedge ledger's published shape (GET /api/hedge-ledger, spec 2.5), and the venue records it
 * is computed from: funding payments (`userFunding`) and fills (`userFillsByTime`).
 *
 * Sign convention (Hyperliquid, and the devnet simulator): `delta.usdc` of a funding record is
 * the payment as seen by the account, positive when the account received funding. The
 * `cumFunding` of `clearinghouseState` uses the opposite sign (paid is positive); it is not used.
 */
import { z } from "zod";
import { PinsSchema } from "../../reports/pins.js";
import { addressSchema, isoTimeSchema } from "../../schema-primitives.js";

/** One funding payment as the venue lists it; `nSamples` is null when the record is one hour. */
export type FundingPayment = {
  time: number; // unix ms
  coin: string;
  usdc: number; // signed: + received by the account, − paid by it
  szi: number; // signed position size (negative = short)
  fundingRate: number; // per hour; for an aggregated record, the mean over its hours
  nSamples: number | null;
};

export type Fill = {
  time: number; // unix ms
  coin: string;
  tid: number;
  closedPnl: number; // signed, USD
  fee: number; // USD (feeToken USDC); negative for a maker rebate
  feeToken: string;
};

/** Plain JSON types only: the schema is also the route's OpenAPI entry (z.toJSONSchema). */
const usdFigure = (what: string) => z.number().describe(`${what}, USD at 6 decimals`);
const count = (what: string) => z.number().int().describe(what);

export const LedgerSumsSchema = z.strictObject({
  fundingUsd: usdFigure("signed sum of funding payments (+ received, − paid; never clamped)"),
  feesUsd: usdFigure("sum of trading fees (negative for a maker rebate)"),
  closedPnlUsd: usdFigure("sum of realized PnL on position reductions: one leg of the hedge, not profit"),
  netUsd: usdFigure("fundingUsd + closedPnlUsd − feesUsd; not profit"),
  fundingEvents: count("funding records counted"),
  fills: count("fills counted"),
});
export type LedgerSums = z.infer<typeof LedgerSumsSchema>;

export const LedgerMonthSchema = z.strictObject({
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .describe("UTC month, YYYY-MM"),
  ...LedgerSumsSchema.shape,
});
export type LedgerMonth = z.infer<typeof LedgerMonthSchema>;

/** Totals: the sums, or every figure null when the venue could not be read (unknown, not zero). */
export const LedgerTotalsSchema = z
  .strictObject({
    fundingUsd: LedgerSumsSchema.shape.fundingUsd.nullable(),
    feesUsd: LedgerSumsSchema.shape.feesUsd.nullable(),
    closedPnlUsd: LedgerSumsSchema.shape.closedPnlUsd.nullable(),
    netUsd: LedgerSumsSchema.shape.netUsd.nullable(),
    fundingEvents: LedgerSumsSchema.shape.fundingEvents.nullable(),
    fills: LedgerSumsSchema.shape.fills.nullable(),
  })
  .describe("sums over the whole window; every figure null when the venue could not be read");
export type LedgerTotals = z.infer<typeof LedgerTotalsSchema>;

export const LedgerDenominatorSchema = z
  .strictObject({
    fundingRecords: z.number().int().nullable().describe("funding records in the window"),
    positionHours: z
      .number()
      .nullable()
      .describe("Σ nSamples per funding record (1 when absent), never the record count"),
    notionalHoursUsd: z
      .number()
      .nullable()
      .describe(
        "Σ |szi| × price × hours per record, derived as |usdc / fundingRate|; null when no record implies a price",
      ),
    timeWeightedNotionalUsd: z.number().nullable().describe("notionalHoursUsd / positionHours"),
    annualisedOnNotional: z
      .number()
      .nullable()
      .describe("fundingUsd / notionalHoursUsd × 8760, a fraction on the scale of expectedAPY"),
    zeroRateRecords: z
      .number()
      .int()
      .nullable()
      .describe("records whose rate or payment is zero (valued at the nearest implied price)"),
    basis: z.string().describe("how the denominator is computed"),
  })
  .describe("the funding carry's denominator; every figure null when the venue could not be read");
export type LedgerDenominator = z.infer<typeof LedgerDenominatorSchema>;

export const LedgerReplaySchema = z
  .strictObject({
    userFunding: z
      .string()
      .nullable()
      .describe("the venue request behind the funding payments (curl); null without a venue URL"),
    userFills: z.string().nullable().describe("the venue request behind the fills (curl); null without a venue URL"),
    fundingHistory: z
      .string()
      .nullable()
      .describe("the venue's public hourly funding rates over the window (curl); null without a venue URL"),
    writeup: z.string().describe("how to page the requests and recompute every figure"),
  })
  .describe("reproduction requests as text");
export type LedgerReplay = z.infer<typeof LedgerReplaySchema>;

export const VenueReadStatusSchema = z
  .discriminatedUnion("ok", [
    z.strictObject({
      ok: z.literal(true),
      pages: z
        .strictObject({ userFunding: z.number().int(), userFills: z.number().int() })
        .describe("pages read per request"),
    }),
    z.strictObject({
      ok: z.literal(false),
      reason: z.string().describe("why the venue could not be read"),
      status: z.number().int().optional().describe("the venue's HTTP status, when it answered"),
      request: z.string().optional().describe("the request that failed"),
    }),
  ])
  .describe("whether the venue was read");
export type VenueReadStatus = z.infer<typeof VenueReadStatusSchema>;

/** What the venue keeps of the account's fills: its 10,000 most recent, so older fills are gone for every reader. */
export type FillsRetention = { kept: number; complete: boolean; horizonMs: number | null };

export const FillsRetentionSchema = z
  .strictObject({
    fillsKept: z
      .number()
      .int()
      .nullable()
      .describe("fills the venue served from sinceISO to the read (it keeps an account's 10,000 most recent)"),
    complete: z
      .boolean()
      .nullable()
      .describe(
        "true: every fill since sinceISO was served; false: fills before horizonISO may be gone, so the months before it may lack fills; null when the venue could not be read",
      ),
    horizonISO: isoTimeSchema.nullable().describe("with complete false: the oldest fill the venue still served"),
  })
  .describe("what the venue keeps of the account's fills");
export type FillsRetentionDoc = z.infer<typeof FillsRetentionSchema>;

/** GET /api/hedge-ledger (spec 2.5): one shape whether or not the venue could be read. */
export const HedgeLedgerSchema = z
  .strictObject({
    isLive: z
      .boolean()
      .describe("true when the figures were read from the venue now; false when it could not be read (figures null)"),
    account: addressSchema.describe("the hedge account on the venue"),
    venue: z.string().describe("the venue's name"),
    coin: z.string().describe("the hedged coin"),
    sinceISO: isoTimeSchema.describe("start of the ledger: when the hedge account was funded"),
    untilISO: isoTimeSchema.describe("end of the window (the request's until, capped at now)"),
    months: z
      .array(LedgerMonthSchema)
      .nullable()
      .describe(
        "one bucket per UTC month since sinceISO, empty months included; null when the venue could not be read",
      ),
    totals: LedgerTotalsSchema,
    denominator: LedgerDenominatorSchema,
    methodology: z.string(),
    replay: LedgerReplaySchema,
    venueRead: VenueReadStatusSchema,
    fillsRetention: FillsRetentionSchema,
    updatedAt: isoTimeSchema.describe("when the ledger was computed"),
    pins: PinsSchema,
  })
  .describe("the hedge account's realized ledger from the venue's own records");
export type HedgeLedger = z.infer<typeof HedgeLedgerSchema>;
