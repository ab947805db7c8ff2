/**
 * The hedge account's realized ledger (spec 2.5), as pure functions of the venue's own records:
 * funding payments (`userFunding`) and fills (`userFillsByTime`). Nothing here reads the network,
 * so every figure can be recomputed by hand from the replay requests the document publishes.
 *
 * This file assembles the document; its parts are beside it: the published shape and the venue
 * records (hedge-ledger-schema.ts), the sums (-sums.ts, rules 1 and 2), the UTC months (-months.ts,
 * rule 3), the denominator (-denominator.ts, rules 4 and 5), the replay requests and methodology
 * (-replay.ts, rule 6). Every name callers use is exported from here.
 */

import type { Pins } from "../../reports/pins.js";
import { buildDenominator, DENOMINATOR_BASIS } from "./hedge-ledger-denominator.js";
import { bucketByMonth, inWindow } from "./hedge-ledger-months.js";
import { HEDGE_LEDGER_METHODOLOGY, type LedgerSource, replayRequests } from "./hedge-ledger-replay.js";
import type {
  Fill,
  FillsRetention,
  FillsRetentionDoc,
  FundingPayment,
  HedgeLedger,
  VenueReadStatus,
} from "./hedge-ledger-schema.js";
import { sumLedger } from "./hedge-ledger-sums.js";

export * from "./hedge-ledger-denominator.js";
export * from "./hedge-ledger-months.js";
export * from "./hedge-ledger-replay.js";
export * from "./hedge-ledger-schema.js";
export * from "./hedge-ledger-sums.js";

/** The ledger starts when the hedge account was funded. */
export const LEDGER_SINCE_ISO = "2026-05-14T00:00:00.000Z";
export const LEDGER_SINCE_MS = Date.parse(LEDGER_SINCE_ISO);

/** The venue's records over the window, and what it keeps of the fills. */
export type LedgerRecords = {
  funding: readonly FundingPayment[];
  fills: readonly Fill[];
  pages: { userFunding: number; userFills: number };
  retention: FillsRetention;
};

const retentionDoc = (r: FillsRetention | null): FillsRetentionDoc => ({
  fillsKept: r?.kept ?? null,
  complete: r?.complete ?? null,
  horizonISO: r?.horizonMs == null ? null : new Date(r.horizonMs).toISOString(),
});

export function buildHedgeLedger(
  src: LedgerSource,
  records: LedgerRecords,
  pins: Pins,
  updatedAtMs: number,
): HedgeLedger {
  const f = inWindow(records.funding, src.sinceMs, src.untilMs);
  const x = inWindow(records.fills, src.sinceMs, src.untilMs);
  return {
    ...header(src, true),
    months: bucketByMonth(f, x, src.sinceMs, src.untilMs),
    totals: sumLedger(f, x),
    denominator: buildDenominator(f),
    methodology: HEDGE_LEDGER_METHODOLOGY,
    replay: replayRequests(src),
    venueRead: { ok: true, pages: records.pages },
    fillsRetention: retentionDoc(records.retention),
    updatedAt: new Date(updatedAtMs).toISOString(),
    pins,
  };
}

/** The venue could not be read: every figure is unknown, so null, and the reason is given. */
export function unavailableHedgeLedger(
  src: LedgerSource,
  read: Extract<VenueReadStatus, { ok: false }>,
  pins: Pins,
  updatedAtMs: number,
): HedgeLedger {
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
    methodology: HEDGE_LEDGER_METHODOLOGY,
    replay: replayRequests(src),
    venueRead: read,
    fillsRetention: retentionDoc(null),
    updatedAt: new Date(updatedAtMs).toISOString(),
    pins,
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
