/**
 * GET /api/hedge-ledger re-derived from the reader's own venue reads: the account's funding
 * payments and fills over the ledger's exact window (its pins), paged as the venue pages them,
 * then the service's own assembler (buildHedgeLedger). The venue keeps only an account's 10,000
 * most recent fills, so whatever rests on fills older than the oldest it serves to the reader is
 * said to be beyond its retention, never equal. What the venue kept and how it paged when the
 * report was read are shown as recorded, with the reader's own beside them.
 */
import {
  buildHedgeLedger,
  type Fill,
  type FillsRetention,
  type HedgeLedger,
  HedgeLedgerSchema,
  type LedgerRecords,
  type LedgerSource,
  unavailableHedgeLedger,
} from "@kusd/core";
import { readLedgerRecords } from "../read-plan/hedge-ledger-reads.js";
import { classifyFigures, type RestingInput } from "../rederive/classify.js";
import { checkNetworkDocument } from "../rederive/network-check.js";
import { VenueReadError } from "../venue/venue-read-error.js";
import { VenueReader } from "../venue/venue-reader.js";
import { isPin, parseReport, type ReportVerifier } from "./report-verifier.js";

/** The retention the report recorded. */
function recordedRetention(l: HedgeLedger): FillsRetention {
  const r = l.fillsRetention;
  return {
    kept: r.fillsKept ?? 0,
    complete: r.complete ?? true,
    horizonMs: r.horizonISO === null ? null : Date.parse(r.horizonISO),
  };
}

/**
 * One made-up fill at the start of every UTC month before `horizonMs`: what moves with them rests on
 * fills the venue no longer serves. Its PnL and fee differ, so a net of the two moves too.
 */
function fillsBefore(sinceMs: number, horizonMs: number): Fill[] {
  const out: Fill[] = [];
  const d = new Date(sinceMs);
  for (let t = sinceMs, i = 0; t < horizonMs; i++) {
    out.push({ time: t, coin: "probe", tid: -1 - i, closedPnl: 3, fee: 1, feeToken: "USDC" });
    d.setUTCMonth(d.getUTCMonth() + 1, 1);
    d.setUTCHours(0, 0, 0, 0);
    t = d.getTime();
  }
  out.push({ time: horizonMs - 1, coin: "probe", tid: -1_000, closedPnl: 3, fee: 1, feeToken: "USDC" });
  return out;
}

export const hedgeLedgerVerifier: ReportVerifier = {
  report: "hedge-ledger",
  path: "/api/hedge-ledger",
  async rederive(input, s) {
    const published = parseReport(HedgeLedgerSchema, input, "/api/hedge-ledger");
    const pins = published.pins;
    checkNetworkDocument(s.network, s.networkName, pins.network);
    const src: LedgerSource = {
      infoUrl: pins.venue?.url ?? null,
      venue: published.venue,
      account: published.account,
      coin: published.coin,
      sinceMs: Date.parse(published.sinceISO),
      untilMs: Date.parse(published.untilISO),
    };
    const updatedAtMs = Date.parse(published.updatedAt);
    if (published.venueRead.ok === false) {
      const read = published.venueRead;
      const rows = classifyFigures({
        published,
        inputs: read,
        build: (r) => unavailableHedgeLedger(src, r, pins, updatedAtMs),
        resting: [
          {
            category: "venue-now",
            perturb: [(r) => ({ ...r, reason: `${r.reason} (probe)` })],
            note: "the venue could not be read when the report was built: as the service recorded it",
          },
        ],
        skip: isPin,
      });
      return { report: "hedge-ledger", block: null, rows, failedReads: [], checks: [] };
    }
    if (!s.venue)
      throw new VenueReadError("no venue endpoint to read the ledger from: pass --venue <URL>", {
        url: "",
        request: "userFunding",
      });
    const reader = new VenueReader(s.venue.url);
    const mine = await readLedgerRecords(reader, published.account, src.sinceMs, src.untilMs);
    // What the venue kept and how it paged, as recorded; the reader's own shown beside them.
    const inputs: LedgerRecords = {
      ...mine,
      pages: published.venueRead.pages,
      retention: recordedRetention(published),
    };
    const horizon = mine.retention.complete ? null : mine.retention.horizonMs;
    const resting: RestingInput<LedgerRecords>[] = [
      {
        category: "venue-now",
        perturb: [
          (i) => ({
            ...i,
            pages: { userFunding: i.pages.userFunding + 1, userFills: i.pages.userFills + 1 },
            retention: { kept: i.retention.kept + 1, complete: !i.retention.complete, horizonMs: 1 },
          }),
        ],
        note: "what the venue kept and how it paged when the report was read (the reader's read shown beside)",
        now: { ...inputs, pages: mine.pages, retention: mine.retention },
      },
    ];
    if (horizon !== null && horizon > src.sinceMs)
      resting.push({
        category: "beyond-retention",
        perturb: [(i) => ({ ...i, fills: [...fillsBefore(src.sinceMs, horizon), ...i.fills] })],
        note: `the venue keeps an account's 10,000 most recent fills; the oldest it serves now is at ${new Date(horizon).toISOString()}, so fills before it cannot be read again`,
      });
    const rows = classifyFigures<LedgerRecords>({
      published,
      inputs,
      build: (i) => buildHedgeLedger(src, i, pins, updatedAtMs),
      resting,
      skip: isPin,
    });
    const funding = reader.requests.find((r) => r.request.type === "userFunding");
    const fills = reader.requests.find((r) => r.request.type === "userFillsByTime");
    return {
      report: "hedge-ledger",
      block: null,
      rows,
      failedReads: [],
      checks: [
        {
          name: "venue history",
          ok: true,
          detail: `${funding?.records} funding payments (${funding?.pages} pages) and ${fills?.records} fills (${fills?.pages} pages) from ${s.venue.url} over ${published.sinceISO} to ${published.untilISO}; ${mine.retention.complete ? "every fill since the start is still served" : `fills before ${new Date(mine.retention.horizonMs!).toISOString()} are no longer served (the venue keeps ${mine.retention.kept})`}`,
        },
      ],
    };
  },
};
