/**
 * HedgeLedgerSchema, the published shape of GET /api/hedge-ledger: the ledger from hand-made
 * venue records (the fixtures of test/e2e/hedge-ledger.test.ts, where the spec 2.5 rules are
 * tested) passes it live and unavailable, and a document that gains or loses a field fails.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildHedgeLedger, HedgeLedgerSchema, LEDGER_SINCE_MS, unavailableHedgeLedger, type Fill, type FundingPayment, type HedgeLedger, type LedgerSource } from "./hedge-ledger.js";

const t = (iso: string) => Date.parse(iso);
const rec = (iso: string, usdc: number, szi: number, fundingRate: number, nSamples: number | null = null): FundingPayment => ({ time: t(iso), coin: "ETH", usdc, szi, fundingRate, nSamples });
const fill = (iso: string, fee: number, closedPnl: number, tid: number): Fill => ({ time: t(iso), coin: "ETH", tid, fee, closedPnl, feeToken: "USDC" });

const FUNDING = [
  rec("2026-06-01T07:00:00Z", 2.4, -10, 0.00001, 8), // 8 hours aggregated
  rec("2026-05-13T23:00:00Z", 100, -10, 0.001), // before the ledger starts
  rec("2026-05-20T10:00:00Z", 0.3, -10, 0.00001),
  rec("2026-07-01T00:00:00Z", 0, -20, 0), // zero rate
  rec("2026-05-31T23:00:00Z", -0.6, -10, -0.00002), // the short paid
  rec("2026-06-30T23:00:00Z", 0.25, -20, 0.000005),
];
const FILLS = [
  fill("2026-05-13T00:00:00Z", 5, 0, 0),
  fill("2026-05-15T09:00:00Z", 12.6, 0, 1),
  fill("2026-05-31T23:59:59.999Z", 0.4, -40, 2),
  fill("2026-06-01T00:00:00.000Z", 3, -100, 3),
  fill("2026-07-31T12:00:00Z", 1, 250, 4),
];
const UNTIL = t("2026-08-15T00:00:00Z");
const SRC: LedgerSource = { infoUrl: "http://venue.test/info", venue: "hyperliquid", account: "0x00000000000000000000000000000000000000aa", coin: "ETH", sinceMs: LEDGER_SINCE_MS, untilMs: UNTIL };

/** The document as the route sends it: through JSON, like a client reads it. */
const json = (l: HedgeLedger) => JSON.parse(JSON.stringify(l));
const live = () => buildHedgeLedger(SRC, FUNDING, FILLS, { userFunding: 1, userFills: 1 }, UNTIL);
const documents = () => ({
  live: live(),
  "live, no records and no venue URL (null replay requests, null notional)": buildHedgeLedger({ ...SRC, infoUrl: null }, [], [], { userFunding: 1, userFills: 1 }, UNTIL),
  "venue answered an error": unavailableHedgeLedger(SRC, { ok: false, reason: "venue answered 500", status: 500, request: "userFunding" }, UNTIL),
  "no venue URL configured": unavailableHedgeLedger({ ...SRC, infoUrl: null }, { ok: false, reason: "no venue URL is configured" }, UNTIL),
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
    expect(HedgeLedgerSchema.safeParse({ ...doc, denominator: { ...doc.denominator, basis: null } }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, months: [{ ...doc.months[0], fundingUsd: null }] }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, venueRead: { ok: true } }).success).toBe(false);
    expect(HedgeLedgerSchema.safeParse({ ...doc, account: "not an address" }).success).toBe(false);
  });

  it("converts to JSON Schema (the OpenAPI document's entry), with the document's keys in order", () => {
    const schema = z.toJSONSchema(HedgeLedgerSchema) as { required: string[]; additionalProperties: boolean };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(Object.keys(json(live())));
  });
});
