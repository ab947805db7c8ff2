/**
 * The hedge account's realized ledger (spec 2.5), as pure functions of the venue's own records:
 * funding payments (`userFunding`) and fills (`userFillsByTime`). Nothing here reads the network,
 * so every figure can be recomputed by hand from the replay requests the document publishes.
 *
 * Sign convention (Hyperliquid, and the devnet simulator): `delta.usdc` of a funding record is
 * the payment as seen by the account, positive when the account received funding. The
 * `cumFunding` of `clearinghouseState` uses the opposite sign (paid is positive); it is not used.
 */
import { shellQuote } from "../shell-quote.js";
import type { Address } from "viem";
import { z } from "zod";
import { addressSchema, isoTimeSchema } from "../schema-primitives.js";

/** The ledger starts when the hedge account was funded. */
export const LEDGER_SINCE_ISO = "2026-05-14T00:00:00.000Z";
export const LEDGER_SINCE_MS = Date.parse(LEDGER_SINCE_ISO);

export const HOURS_PER_YEAR = 8760;

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

// ---------------------------------------------------------------- the published shape

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
  month: z.string().regex(/^\d{4}-\d{2}$/).describe("UTC month, YYYY-MM"),
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
    positionHours: z.number().nullable().describe("Σ nSamples per funding record (1 when absent), never the record count"),
    notionalHoursUsd: z.number().nullable().describe("Σ |szi| × price × hours per record, derived as |usdc / fundingRate|; null when no record implies a price"),
    timeWeightedNotionalUsd: z.number().nullable().describe("notionalHoursUsd / positionHours"),
    annualisedOnNotional: z.number().nullable().describe("fundingUsd / notionalHoursUsd × 8760, a fraction on the scale of expectedAPY"),
    zeroRateRecords: z.number().int().nullable().describe("records whose rate or payment is zero (valued at the nearest implied price)"),
    basis: z.string().describe("how the denominator is computed"),
  })
  .describe("the funding carry's denominator; every figure null when the venue could not be read");
export type LedgerDenominator = z.infer<typeof LedgerDenominatorSchema>;

export const LedgerReplaySchema = z
  .strictObject({
    userFunding: z.string().nullable().describe("the venue request behind the funding payments (curl); null without a venue URL"),
    userFills: z.string().nullable().describe("the venue request behind the fills (curl); null without a venue URL"),
    fundingHistory: z.string().nullable().describe("the venue's public hourly funding rates over the window (curl); null without a venue URL"),
    writeup: z.string().describe("how to page the requests and recompute every figure"),
  })
  .describe("reproduction requests as text");
export type LedgerReplay = z.infer<typeof LedgerReplaySchema>;

export const VenueReadStatusSchema = z
  .discriminatedUnion("ok", [
    z.strictObject({
      ok: z.literal(true),
      pages: z.strictObject({ userFunding: z.number().int(), userFills: z.number().int() }).describe("pages read per request"),
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

/** GET /api/hedge-ledger (spec 2.5): one shape whether or not the venue could be read. */
export const HedgeLedgerSchema = z
  .strictObject({
    isLive: z.boolean().describe("true when the figures were read from the venue now; false when it could not be read (figures null)"),
    account: addressSchema.describe("the hedge account on the venue"),
    venue: z.string().describe("the venue's name"),
    coin: z.string().describe("the hedged coin"),
    sinceISO: isoTimeSchema.describe("start of the ledger: when the hedge account was funded"),
    untilISO: isoTimeSchema.describe("end of the window (the request's until, capped at now)"),
    months: z.array(LedgerMonthSchema).nullable().describe("one bucket per UTC month since sinceISO, empty months included; null when the venue could not be read"),
    totals: LedgerTotalsSchema,
    denominator: LedgerDenominatorSchema,
    methodology: z.string(),
    replay: LedgerReplaySchema,
    venueRead: VenueReadStatusSchema,
    updatedAt: isoTimeSchema.describe("when the ledger was computed"),
  })
  .describe("the hedge account's realized ledger from the venue's own records");
export type HedgeLedger = z.infer<typeof HedgeLedgerSchema>;

/** USD figures are published at the venue's own precision (6 decimals); −0 is folded to 0. */
export const usd = (x: number): number => {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};

// ---------------------------------------------------------------- rule 1, 2, 6: the sums

/** Rule 1. Closed PnL is one leg of the hedge (the spot leg offsets it), so this is not profit. */
export const netUsd = (fundingUsd: number, closedPnlUsd: number, feesUsd: number): number => fundingUsd + closedPnlUsd - feesUsd;

/** Rule 2: the signed sum; a payment the account made subtracts and nothing is clamped at zero. */
export const signedFundingUsd = (records: readonly FundingPayment[]): number => records.reduce((s, r) => s + r.usdc, 0);

export function sumLedger(funding: readonly FundingPayment[], fills: readonly Fill[]): LedgerSums {
  const fundingUsd = signedFundingUsd(funding);
  const feesUsd = fills.reduce((s, f) => s + f.fee, 0);
  const closedPnlUsd = fills.reduce((s, f) => s + f.closedPnl, 0);
  return {
    fundingUsd: usd(fundingUsd),
    feesUsd: usd(feesUsd),
    closedPnlUsd: usd(closedPnlUsd),
    netUsd: usd(netUsd(fundingUsd, closedPnlUsd, feesUsd)),
    fundingEvents: funding.length,
    fills: fills.length,
  };
}

// ---------------------------------------------------------------- rule 3: UTC months

/** "YYYY-MM" of a unix-ms time, in UTC. */
export const monthKey = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** Every UTC month from `sinceMs` through `untilMs`, inclusive, empty months included. */
export function monthKeys(sinceMs: number, untilMs: number): string[] {
  const out: string[] = [];
  if (untilMs < sinceMs) return out;
  const start = new Date(sinceMs);
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth();
  const last = monthKey(untilMs);
  for (;;) {
    const key = `${y}-${String(m + 1).padStart(2, "0")}`;
    out.push(key);
    if (key >= last) return out;
    m += 1;
    if (m === 12) (m = 0), (y += 1);
  }
}

/** Records inside [sinceMs, untilMs]; the venue's own range filter is inclusive at both ends. */
export const inWindow = <T extends { time: number }>(xs: readonly T[], sinceMs: number, untilMs: number): T[] =>
  xs.filter((x) => x.time >= sinceMs && x.time <= untilMs);

/** Rule 3: one bucket per UTC month since `sinceMs`, each record in the month of its own time. */
export function bucketByMonth(funding: readonly FundingPayment[], fills: readonly Fill[], sinceMs: number, untilMs: number): LedgerMonth[] {
  const f = inWindow(funding, sinceMs, untilMs);
  const x = inWindow(fills, sinceMs, untilMs);
  return monthKeys(sinceMs, untilMs).map((month) => ({
    month,
    ...sumLedger(
      f.filter((r) => monthKey(r.time) === month),
      x.filter((r) => monthKey(r.time) === month),
    ),
  }));
}

// ---------------------------------------------------------------- rules 4, 5: the denominator

/** Rule 5: the hours a record stands for; a record without a sample count is one hour. */
export const recordHours = (r: FundingPayment): number => (r.nSamples == null || r.nSamples < 1 ? 1 : r.nSamples);

/**
 * Notional-hours of a record is |szi| × price × hours. The record carries no price, but its
 * payment is usdc = Σ notional_h × rate_h, and its rate is the mean rate over its hours, so
 * |usdc / fundingRate| = |szi| × price × hours (exact for one hour; for an aggregated record,
 * the rate-weighted mean notional × hours). Undefined when the rate or the payment is zero.
 */
export const derivableNotional = (r: FundingPayment): boolean => r.fundingRate !== 0 && r.usdc !== 0;

/** The mark price a derivable record implies: |usdc| / (|rate| × hours × |szi|). */
const impliedPrice = (r: FundingPayment): number | null =>
  derivableNotional(r) && r.szi !== 0 ? Math.abs(r.usdc) / (Math.abs(r.fundingRate) * recordHours(r) * Math.abs(r.szi)) : null;

/**
 * Notional-hours per record, in time order. A zero-rate (or zero-payment) record still held the
 * position for its hours, so leaving it out would overstate the yield on notional; it is valued
 * at |szi| × hours × the price implied by the nearest earlier derivable record (the nearest
 * later one when none precedes). Null when no record implies a price at all.
 */
export function notionalHoursPerRecord(sorted: readonly FundingPayment[]): (number | null)[] {
  const prices = sorted.map(impliedPrice);
  return sorted.map((r, i) => {
    if (derivableNotional(r)) return Math.abs(r.usdc / r.fundingRate);
    if (r.szi === 0) return 0;
    let px: number | null = null;
    for (let j = i - 1; j >= 0 && px === null; j--) px = prices[j] ?? null;
    for (let j = i + 1; j < sorted.length && px === null; j++) px = prices[j] ?? null;
    return px === null ? null : Math.abs(r.szi) * px * recordHours(r);
  });
}

/** Rule 4: a fraction per year, on the same scale as expectedAPY; null without a denominator. */
export const annualisedOnNotional = (fundingUsd: number, notionalHoursUsd: number | null): number | null =>
  notionalHoursUsd === null || notionalHoursUsd <= 0 ? null : (fundingUsd / notionalHoursUsd) * HOURS_PER_YEAR;

export const DENOMINATOR_BASIS =
  "positionHours = Σ nSamples per userFunding record (1 when absent), never the record count; " +
  "notionalHoursUsd = Σ |szi| × price × hours per record, derived as |usdc / fundingRate| (the record's rate is its mean hourly rate); " +
  "records whose rate or payment is zero carry no price, are counted in zeroRateRecords and valued at |szi| × hours × the price implied by the nearest derivable record (earlier first); " +
  "timeWeightedNotionalUsd = notionalHoursUsd / positionHours; annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760 (a fraction).";

export function buildDenominator(funding: readonly FundingPayment[]): LedgerDenominator {
  const sorted = [...funding].sort((a, b) => a.time - b.time);
  const positionHours = sorted.reduce((s, r) => s + recordHours(r), 0);
  const perRecord = notionalHoursPerRecord(sorted);
  const notional = perRecord.some((n) => n === null) ? null : perRecord.reduce<number>((s, n) => s + (n ?? 0), 0);
  const fundingUsd = signedFundingUsd(sorted);
  const annualised = annualisedOnNotional(fundingUsd, notional);
  return {
    fundingRecords: sorted.length,
    positionHours,
    notionalHoursUsd: notional === null ? null : usd(notional),
    timeWeightedNotionalUsd: notional === null || positionHours === 0 ? null : usd(notional / positionHours),
    annualisedOnNotional: annualised === null ? null : Math.round(annualised * 1e10) / 1e10,
    zeroRateRecords: sorted.filter((r) => !derivableNotional(r)).length,
    basis: DENOMINATOR_BASIS,
  };
}

// ---------------------------------------------------------------- replay and text

export type LedgerSource = {
  /** Full `/info` endpoint of the venue, or null when none is configured. */
  infoUrl: string | null;
  venue: string;
  account: Address;
  coin: string;
  sinceMs: number;
  untilMs: number;
};

const curl = (url: string, body: Record<string, unknown>, note: string) =>
  `curl -s -X POST ${url} -H 'content-type: application/json' -d ${shellQuote(JSON.stringify(body))}  # ${note}`;

/** The exact `POST /info` bodies behind the figures (first page; later pages move startTime). */
export function replayRequests(src: LedgerSource): LedgerReplay {
  const range = { startTime: src.sinceMs, endTime: src.untilMs };
  const writeup =
    "Page each request: the venue returns at most 500 records, so repeat it with startTime = (largest time in the page) + 1 until a page has fewer than 500. " +
    "fundingUsd = Σ delta.usdc (signed, + received); positionHours = Σ (delta.nSamples ?? 1); notionalHoursUsd = Σ |delta.usdc / delta.fundingRate|; " +
    "feesUsd = Σ fee and closedPnlUsd = Σ closedPnl over the fills; bucket each record by the UTC month of its time. " +
    "fundingHistory gives the venue's public hourly rates over the same window, to check the account's rates against.";
  if (src.infoUrl === null) return { userFunding: null, userFills: null, fundingHistory: null, writeup: `No venue URL is configured. ${writeup}` };
  return {
    userFunding: curl(src.infoUrl, { type: "userFunding", user: src.account, ...range }, "funding payments, delta.usdc signed (+ received)"),
    userFills: curl(src.infoUrl, { type: "userFillsByTime", user: src.account, ...range }, "fills, newest first within a page: fee, closedPnl"),
    fundingHistory: curl(src.infoUrl, { type: "fundingHistory", coin: src.coin, ...range }, "the venue's hourly funding rates for the hedged coin"),
    writeup,
  };
}

export const METHODOLOGY =
  "Realized ledger of the operator's hedge account on the venue, from the venue's own records since 2026-05-14 (UTC months). " +
  "fundingUsd is the signed sum of funding payments (negative funding subtracts; never clamped). feesUsd is the sum of trading fees, closedPnlUsd the sum of realized PnL on position reductions. " +
  "netUsd = fundingUsd + closedPnlUsd − feesUsd. closedPnlUsd is one leg of a hedge: the short's losses and gains offset the spot collateral it hedges, which is not in this ledger, so netUsd is not profit. " +
  "The funding carry is fundingUsd against the notional held: annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760. " +
  "Records of every coin in the account are included; nothing is estimated when the venue cannot be read (figures are then null).";

// ---------------------------------------------------------------- the document

export function buildHedgeLedger(src: LedgerSource, funding: readonly FundingPayment[], fills: readonly Fill[], pages: { userFunding: number; userFills: number }, updatedAtMs: number): HedgeLedger {
  const f = inWindow(funding, src.sinceMs, src.untilMs);
  const x = inWindow(fills, src.sinceMs, src.untilMs);
  return {
    ...header(src, true),
    months: bucketByMonth(f, x, src.sinceMs, src.untilMs),
    totals: sumLedger(f, x),
    denominator: buildDenominator(f),
    methodology: METHODOLOGY,
    replay: replayRequests(src),
    venueRead: { ok: true, pages },
    updatedAt: new Date(updatedAtMs).toISOString(),
  };
}

/** The venue could not be read: every figure is unknown, so null, and the reason is given. */
export function unavailableHedgeLedger(src: LedgerSource, read: Extract<VenueReadStatus, { ok: false }>, updatedAtMs: number): HedgeLedger {
  return {
    ...header(src, false),
    months: null,
    totals: { fundingUsd: null, feesUsd: null, closedPnlUsd: null, netUsd: null, fundingEvents: null, fills: null },
    denominator: {
      fundingRecords: null,
      positionHours: null,
      notionalHoursUsd: null,
      timeWeightedNotionalUsd: null,
      annualisedOnNotional: null,
      zeroRateRecords: null,
      basis: DENOMINATOR_BASIS,
    },
    methodology: METHODOLOGY,
    replay: replayRequests(src),
    venueRead: read,
    updatedAt: new Date(updatedAtMs).toISOString(),
  };
}

const header = (src: LedgerSource, isLive: boolean) => ({
  isLive,
  account: src.account,
  venue: src.venue,
  coin: src.coin,
  sinceISO: new Date(src.sinceMs).toISOString(),
  untilISO: new Date(src.untilMs).toISOString(),
});
