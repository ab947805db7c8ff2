/**
 * The hedge-account ledger's rules (spec 2.5), each against numbers worked out by hand from a
 * small set of venue records: hourly and 8-hour aggregated funding, a negative payment, a
 * zero-rate hour, and records on both sides of month boundaries and of the ledger's start.
 */
import { describe, expect, it } from "vitest";
import { hedgeLedgerRoutes, parseUntil } from "../../api/yield/hedge-ledger-routes.js";
import type { ReportContext } from "../../api/context.js";
import {
  annualisedOnNotional,
  bucketByMonth,
  buildDenominator,
  buildHedgeLedger,
  LEDGER_SINCE_ISO,
  LEDGER_SINCE_MS,
  METHODOLOGY,
  monthKeys,
  netUsd,
  recordHours,
  replayRequests,
  signedFundingUsd,
  sumLedger,
  unavailableHedgeLedger,
  type Fill,
  type FundingPayment,
  type LedgerSource,
} from "../../core/yield/hedge-ledger.js";

const t = (iso: string) => Date.parse(iso);
const rec = (iso: string, usdc: number, szi: number, fundingRate: number, nSamples: number | null = null): FundingPayment => ({ time: t(iso), coin: "ETH", usdc, szi, fundingRate, nSamples });
const fill = (iso: string, fee: number, closedPnl: number, tid: number): Fill => ({ time: t(iso), coin: "ETH", tid, fee, closedPnl, feeToken: "USDC" });

// Hourly notional = |usdc / rate|: r1, r2 at 10 ETH × 3000; r3 8 hours of 10 ETH × 3000; r4 20 ETH × 2500.
const BEFORE = rec("2026-05-13T23:00:00Z", 100, -10, 0.001); // before the ledger starts
const R1 = rec("2026-05-20T10:00:00Z", 0.3, -10, 0.00001);
const R2 = rec("2026-05-31T23:00:00Z", -0.6, -10, -0.00002); // the short paid
const R3 = rec("2026-06-01T07:00:00Z", 2.4, -10, 0.00001, 8); // 8 hours aggregated, mean rate
const R4 = rec("2026-06-30T23:00:00Z", 0.25, -20, 0.000005);
const R5 = rec("2026-07-01T00:00:00Z", 0, -20, 0); // zero rate: priced at R4's 2500
const FUNDING = [R3, BEFORE, R1, R5, R2, R4]; // out of order on purpose

const FILLS = [
  fill("2026-05-13T00:00:00Z", 5, 0, 0), // before the ledger starts
  fill("2026-05-15T09:00:00Z", 12.6, 0, 1),
  fill("2026-05-31T23:59:59.999Z", 0.4, -40, 2), // last millisecond of May
  fill("2026-06-01T00:00:00.000Z", 3, -100, 3), // first millisecond of June
  fill("2026-07-31T12:00:00Z", 1, 250, 4),
];
const UNTIL = t("2026-08-15T00:00:00Z");
const SRC: LedgerSource = { infoUrl: "http://venue.test/info", venue: "hyperliquid", account: "0x00000000000000000000000000000000000000aa", coin: "ETH", sinceMs: LEDGER_SINCE_MS, untilMs: UNTIL };

describe("rule 1: netUsd = fundingUsd + closedPnlUsd − feesUsd", () => {
  it("adds funding and closed PnL and subtracts fees", () => {
    expect(netUsd(2.35, 110, 17)).toBeCloseTo(95.35, 10);
    expect(netUsd(-0.3, -40, 13)).toBeCloseTo(-53.3, 10);
  });
  it("holds for the totals and each month of a ledger", () => {
    const l = buildHedgeLedger(SRC, FUNDING, FILLS, { userFunding: 1, userFills: 1 }, UNTIL);
    expect(l.totals).toEqual({ fundingUsd: 2.35, feesUsd: 17, closedPnlUsd: 110, netUsd: 95.35, fundingEvents: 5, fills: 4 });
    for (const m of [l.totals, ...l.months!]) expect(m.netUsd!).toBeCloseTo(m.fundingUsd! + m.closedPnlUsd! - m.feesUsd!, 9);
  });
});

describe("rule 2: fundingUsd is the signed sum, never clamped", () => {
  it("lets a payment the account made subtract", () => {
    // +0.3 received, −0.6 paid: −0.3, not 0.9 (absolute) and not 0.3 (negative clamped to 0)
    expect(signedFundingUsd([R1, R2])).toBeCloseTo(-0.3, 12);
    expect(sumLedger([R1, R2], []).fundingUsd).toBe(-0.3);
  });
  it("keeps a negative total negative", () => {
    expect(sumLedger([R2], []).fundingUsd).toBe(-0.6);
    expect(sumLedger([R2], []).netUsd).toBe(-0.6);
  });
  it("takes delta.usdc as the account sees it: positive is received (the short earns when the rate is positive)", () => {
    expect(signedFundingUsd([R1, R3, R4])).toBeCloseTo(2.95, 12);
  });
});

describe("rule 3: UTC months since 2026-05-14", () => {
  it("lists every month from May 2026 through the window's end, empty ones included", () => {
    expect(monthKeys(LEDGER_SINCE_MS, UNTIL)).toEqual(["2026-05", "2026-06", "2026-07", "2026-08"]);
    expect(monthKeys(LEDGER_SINCE_MS, t("2027-01-01T00:00:00Z"))).toEqual(["2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11", "2026-12", "2027-01"]);
    expect(monthKeys(LEDGER_SINCE_MS, LEDGER_SINCE_MS)).toEqual(["2026-05"]);
  });
  it("puts each record in the UTC month of its own time and drops what precedes the start", () => {
    const months = bucketByMonth(FUNDING, FILLS, LEDGER_SINCE_MS, UNTIL);
    expect(months).toEqual([
      { month: "2026-05", fundingUsd: -0.3, feesUsd: 13, closedPnlUsd: -40, netUsd: -53.3, fundingEvents: 2, fills: 2 },
      { month: "2026-06", fundingUsd: 2.65, feesUsd: 3, closedPnlUsd: -100, netUsd: -100.35, fundingEvents: 2, fills: 1 },
      { month: "2026-07", fundingUsd: 0, feesUsd: 1, closedPnlUsd: 250, netUsd: 249, fundingEvents: 1, fills: 1 },
      { month: "2026-08", fundingUsd: 0, feesUsd: 0, closedPnlUsd: 0, netUsd: 0, fundingEvents: 0, fills: 0 },
    ]);
  });
  it("drops what comes after the window's end (inclusive at both ends, like the venue)", () => {
    const months = bucketByMonth(FUNDING, FILLS, LEDGER_SINCE_MS, t("2026-06-01T00:00:00.000Z"));
    expect(months.map((m) => [m.month, m.fills, m.fundingEvents])).toEqual([["2026-05", 2, 2], ["2026-06", 1, 0]]);
  });
  it("sums the months to the totals", () => {
    const l = buildHedgeLedger(SRC, FUNDING, FILLS, { userFunding: 1, userFills: 1 }, UNTIL);
    for (const k of ["fundingUsd", "feesUsd", "closedPnlUsd", "netUsd", "fundingEvents", "fills"] as const) {
      expect(l.months!.reduce((s, m) => s + m[k], 0)).toBeCloseTo(l.totals[k]!, 9);
    }
  });
});

describe("rule 4: annualisedOnNotional = fundingUsd / notionalHoursUsd × 8760", () => {
  it("is a fraction per year", () => {
    // 2.35 / 400000 × 8760 = 0.051465
    expect(annualisedOnNotional(2.35, 400_000)).toBeCloseTo(0.051465, 12);
    expect(buildDenominator(FUNDING.filter((r) => r !== BEFORE)).annualisedOnNotional).toBeCloseTo(0.051465, 10);
  });
  it("is negative when funding was paid on net", () => {
    // −0.3 over 60000 notional-hours: −0.3 / 60000 × 8760 = −0.0438
    expect(buildDenominator([R1, R2]).annualisedOnNotional).toBeCloseTo(-0.0438, 10);
  });
  it("is null, not zero or infinite, without notional", () => {
    expect(annualisedOnNotional(0, 0)).toBeNull();
    expect(annualisedOnNotional(1, null)).toBeNull();
    expect(buildDenominator([]).annualisedOnNotional).toBeNull();
  });
});

describe("rule 5: positionHours from per-record sample counts", () => {
  it("counts a record without nSamples as one hour and an aggregated record as its samples", () => {
    expect(recordHours(R1)).toBe(1);
    expect(recordHours(R3)).toBe(8);
  });
  it("sums the hours, not the records, and derives notional-hours from usdc / rate", () => {
    const d = buildDenominator([R1, R2, R3, R4, R5]);
    expect(d.fundingRecords).toBe(5);
    expect(d.positionHours).toBe(12); // 1 + 1 + 8 + 1 + 1, not 5
    // 30000 + 30000 + 240000 (|2.4 / 0.00001| = 10 × 3000 × 8) + 50000 + 50000 (zero rate: 20 × 2500 × 1)
    expect(d.notionalHoursUsd).toBe(400_000);
    expect(d.timeWeightedNotionalUsd).toBeCloseTo(400_000 / 12, 6);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("an 8-hour aggregated record is 8 hours at the same notional, not 8 × 8", () => {
    const d = buildDenominator([R3]);
    expect(d.positionHours).toBe(8);
    expect(d.notionalHoursUsd).toBe(240_000);
    expect(d.timeWeightedNotionalUsd).toBe(30_000);
  });
  it("prices a zero-rate record from the nearest later record when none precedes it", () => {
    // R5's 20 ETH for one hour at R1's implied 3000 (0.3 / (0.00001 × 1 × 10))
    const d = buildDenominator([rec("2026-05-20T09:00:00Z", 0, -20, 0), R1]);
    expect(d.notionalHoursUsd).toBe(60_000 + 30_000);
    expect(d.positionHours).toBe(2);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("treats a payment that rounds to zero like a zero rate (no divide-by-zero, no zero notional)", () => {
    const d = buildDenominator([R1, rec("2026-05-20T11:00:00Z", 0, -10, 1e-10)]);
    expect(d.notionalHoursUsd).toBe(60_000);
    expect(d.zeroRateRecords).toBe(1);
  });
  it("leaves notional unknown when no record implies a price", () => {
    const d = buildDenominator([R5]);
    expect(d.positionHours).toBe(1);
    expect(d.notionalHoursUsd).toBeNull();
    expect(d.timeWeightedNotionalUsd).toBeNull();
    expect(d.annualisedOnNotional).toBeNull();
    expect(d.zeroRateRecords).toBe(1);
  });
});

describe("rule 6: closed PnL is one leg of a hedge", () => {
  it("says netUsd is not profit", () => {
    expect(METHODOLOGY).toMatch(/one leg of a hedge/);
    expect(METHODOLOGY).toMatch(/netUsd is not profit/);
    expect(buildHedgeLedger(SRC, [], [], { userFunding: 1, userFills: 1 }, UNTIL).methodology).toBe(METHODOLOGY);
  });
});

describe("the document", () => {
  it("carries the spec 2.5 fields, the start and the replay requests as text", () => {
    const l = buildHedgeLedger(SRC, FUNDING, FILLS, { userFunding: 1, userFills: 1 }, UNTIL);
    expect(l).toMatchObject({ isLive: true, account: SRC.account, venue: "hyperliquid", sinceISO: LEDGER_SINCE_ISO, updatedAt: "2026-08-15T00:00:00.000Z" });
    expect(LEDGER_SINCE_ISO).toBe("2026-05-14T00:00:00.000Z");
    const r = replayRequests(SRC);
    expect(r.userFunding).toContain(`curl -s -X POST http://venue.test/info`);
    expect(r.userFunding).toContain(`'{"type":"userFunding","user":"${SRC.account}","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`);
    expect(r.userFills).toContain(`'{"type":"userFillsByTime","user":"${SRC.account}","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`);
    expect(r.fundingHistory).toContain(`'{"type":"fundingHistory","coin":"ETH","startTime":${LEDGER_SINCE_MS},"endTime":${UNTIL}}'`);
    expect(r.writeup).toMatch(/500/);
    expect(l.replay).toEqual(r);
  });
  it("is all nulls with the reason when the venue cannot be read", () => {
    const l = unavailableHedgeLedger(SRC, { ok: false, reason: "venue answered 500", status: 500 }, UNTIL);
    expect(l.isLive).toBe(false);
    expect(l.months).toBeNull();
    expect(Object.values(l.totals).every((v) => v === null)).toBe(true);
    const { basis, ...numbers } = l.denominator;
    expect(Object.values(numbers).every((v) => v === null)).toBe(true);
    expect(basis).toMatch(/nSamples/);
    expect(l.venueRead).toEqual({ ok: false, reason: "venue answered 500", status: 500 });
  });
});

describe("the route without a venue", () => {
  const ctx = {
    network: { reporting: { venue: { name: "hyperliquid", url: null, account: SRC.account, coin: "ETH" } } },
  } as unknown as ReportContext;
  const app = hedgeLedgerRoutes(ctx, () => UNTIL);

  it("answers 200, isLive false and null figures when no venue is configured", async () => {
    const res = await app.request("/api/hedge-ledger");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.isLive).toBe(false);
    expect(body.totals.fundingUsd).toBeNull();
    expect(body.venueRead.reason).toMatch(/no venue URL/);
  });
  it("rejects a bad until with a 400 JSON error", async () => {
    for (const until of ["yesterday", "2026-13-01", "2026-05-01T00:00:00Z", "2026-06-01T00:00:00"]) {
      const res = await app.request(`/api/hedge-ledger?until=${encodeURIComponent(until)}`);
      expect(res.status, until).toBe(400);
      expect(((await res.json()) as any).error.code).toMatch(/^(invalid_until|until_before_since)$/);
    }
  });
  it("caps until at now", () => {
    expect(parseUntil(undefined, UNTIL)).toBe(UNTIL);
    expect(parseUntil("2026-06-01", UNTIL)).toBe(t("2026-06-01T00:00:00Z"));
    expect(parseUntil("2030-01-01T00:00:00Z", UNTIL)).toBe(UNTIL);
  });
});
