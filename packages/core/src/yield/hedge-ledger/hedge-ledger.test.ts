/**
 * The hedge ledger as assembled, and HedgeLedgerSchema, the published shape of GET
 * /api/hedge-ledger: the ledger from hand-made venue records (hedge-ledger.fixture.ts; the
 * spec 2.5 rules are tested beside their parts) passes it live and unavailable, and a document
 * that gains or loses a field fails.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { basePins } from "../../reports/pins.js";
import { FILLS, FUNDING, SRC, UNTIL } from "./hedge-ledger.fixture.js";
import {
  buildHedgeLedger,
  HEDGE_LEDGER_METHODOLOGY,
  type HedgeLedger,
  HedgeLedgerSchema,
  LEDGER_SINCE_ISO,
  replayRequests,
  unavailableHedgeLedger,
} from "./hedge-ledger.js";

/** The document as the route sends it: through JSON, like a client reads it. */
const json = (l: HedgeLedger) => JSON.parse(JSON.stringify(l));
const PINS = basePins({
  report: "hedge-ledger",
  network: { chainId: 8453, documentSha256: `0x${"d0".repeat(32)}` },
  block: null,
});
const PAGES = { userFunding: 1, userFills: 1 };
const COMPLETE = { kept: FILLS.length, complete: true, horizonMs: null };
const records = (funding = FUNDING, fills = FILLS) => ({ funding, fills, pages: PAGES, retention: COMPLETE });
const live = () => buildHedgeLedger(SRC, records(), PINS, UNTIL);
const documents = () => ({
  live: live(),
  "live, no records and no venue URL (null replay requests, null notional)": buildHedgeLedger(
    { ...SRC, infoUrl: null },
    records([], []),
    PINS,
    UNTIL,
  ),
  "venue answered an error": unavailableHedgeLedger(
    SRC,
    { ok: false, reason: "venue answered 500", status: 500, request: "userFunding" },
    PINS,
    UNTIL,
  ),
  "no venue URL configured": unavailableHedgeLedger(
    { ...SRC, infoUrl: null },
    { ok: false, reason: "no venue URL is configured" },
    PINS,
    UNTIL,
  ),
});

describe("HedgeLedgerSchema", () => {
  it("accepts the ledger, live and unavailable, as sent and as built", () => {
    for (const [name, doc] of Object.entries(documents())) {
      const parsed = HedgeLedgerSchema.safeParse(json(doc));
      expect(parsed.error?.issues, name).toBeUndefined();
      expect(parsed.data, name).toEqual(json(doc));
      expect(HedgeLedgerSchema.safeParse(doc).success, name).toBe(true);
    }
  });

  it("rejects a document that gains or loses a field, at the top or inside", () => {
    const doc = json(live());
    expect(HedgeLedgerSchema.safeParse({ ...doc, profitUsd: 1 }).success).toBe(false);
    const { denominator: _, ...missing } = doc;
    expect(HedgeLedgerSchema.safeParse(missing).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, totals: { ...doc.totals, rebatesUsd: 0 } }).success).toBe(false);
    const [first, ...rest] = doc.months;
    const { fills: __, ...month } = first;
    expect(HedgeLedgerSchema.safeParse({ ...doc, months: [month, ...rest] }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, venueRead: { ...doc.venueRead, retries: 0 } }).success).toBe(false);
  });

  it("allows null only where the ledger can be unknown", () => {
    const doc = json(live());
    expect(HedgeLedgerSchema.safeParse({ ...doc, updatedAt: null }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, denominator: { ...doc.denominator, basis: null } }).success).toBe(
      false,
    );
    expect(HedgeLedgerSchema.safeParse({ ...doc, months: [{ ...doc.months[0], fundingUsd: null }] }).success).toBe(
      false,
    );
    expect(HedgeLedgerSchema.safeParse({ ...doc, venueRead: { ok: true } }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, account: "not an address" }).success).toBe(false);
  });

  it("converts to JSON Schema (the OpenAPI document's entry), with the document's keys in order", () => {
    const schema = z.toJSONSchema(HedgeLedgerSchema) as { required: string[]; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(json(live())));
  });
});

describe("the document", () => {
  it("rule 1 holds for the totals and each month of a ledger", () => {
    const l = live();
    expect(l.totals).toEqual({
      fundingUsd: 2.35,
      feesUsd: 17,
      closedPnlUsd: 110,
      netUsd: 95.35,
      fundingEvents: 5,
      fills: 4,
    });
    for (const m of [l.totals, ...l.months!])
      expect(m.netUsd!).toBeCloseTo(m.fundingUsd! + m.closedPnlUsd! - m.feesUsd!, 9);
  });

  it("rule 3: sums the months to the totals", () => {
    const l = live();
    for (const k of ["fundingUsd", "feesUsd", "closedPnlUsd", "netUsd", "fundingEvents", "fills"] as const) {
      expect(l.months!.reduce((s, m) => s + m[k], 0)).toBeCloseTo(l.totals[k]!, 9);
    }
  });

  it("rule 6: carries the methodology that says netUsd is not profit", () => {
    expect(buildHedgeLedger(SRC, records([], []), PINS, UNTIL).methodology).toBe(HEDGE_LEDGER_METHODOLOGY);
  });

  it("carries the spec 2.5 fields, the start and the replay requests as text", () => {
    const l = live();
    expect(l).toMatchObject({
      isLive: true,
      account: SRC.account,
      venue: "hyperliquid",
      sinceISO: LEDGER_SINCE_ISO,
      updatedAt: "2026-08-15T00:00:00.000Z",
    });
    expect(LEDGER_SINCE_ISO).toBe("2026-05-14T00:00:00.000Z");
    expect(l.replay).toEqual(replayRequests(SRC));
  });

  it("is all nulls with the reason when the venue cannot be read", () => {
    const l = unavailableHedgeLedger(SRC, { ok: false, reason: "venue answered 500", status: 500 }, PINS, UNTIL);
    expect(l.isLive).toBe(false);
    expect(l.months).toBeNull();
    expect(Object.values(l.totals).every((v) => v === null)).toBe(true);
    const { basis, ...numbers } = l.denominator;
    expect(Object.values(numbers).every((v) => v === null)).toBe(true);
    expect(basis).toMatch(/nSamples/);
    expect(l.venueRead).toEqual({ ok: false, reason: "venue answered 500", status: 500 });
  });
});
