/**
 * Venue records for the hedge ledger's tests, with figures worked out by hand: hourly and 8-hour
 * aggregated funding, a negative payment, a zero-rate hour, and records on both sides of month
 * boundaries and of the ledger's start.
 */
import { type Fill, type FundingPayment, LEDGER_SINCE_MS, type LedgerSource } from "./hedge-ledger.js";

export const t = (iso: string) => Date.parse(iso);
export const rec = (
  iso: string,
  usdc: number,
  szi: number,
  fundingRate: number,
  nSamples: number | null = null,
): FundingPayment => ({ time: t(iso), coin: "ETH", usdc, szi, fundingRate, nSamples });
export const fill = (iso: string, fee: number, closedPnl: number, tid: number): Fill => ({
  time: t(iso),
  coin: "ETH",
  tid,
  fee,
  closedPnl,
  feeToken: "USDC",
});

// Hourly notional = |usdc / rate|: r1, r2 at 10 ETH × 3000; r3 8 hours of 10 ETH × 3000; r4 20 ETH × 2500.
export const BEFORE = rec("2026-05-13T23:00:00Z", 100, -10, 0.001); // before the ledger starts
export const R1 = rec("2026-05-20T10:00:00Z", 0.3, -10, 0.00001);
export const R2 = rec("2026-05-31T23:00:00Z", -0.6, -10, -0.00002); // the short paid
export const R3 = rec("2026-06-01T07:00:00Z", 2.4, -10, 0.00001, 8); // 8 hours aggregated, mean rate
export const R4 = rec("2026-06-30T23:00:00Z", 0.25, -20, 0.000005);
export const R5 = rec("2026-07-01T00:00:00Z", 0, -20, 0); // zero rate: priced at R4's 2500
export const FUNDING = [R3, BEFORE, R1, R5, R2, R4]; // out of order on purpose

export const FILLS = [
  fill("2026-05-13T00:00:00Z", 5, 0, 0), // before the ledger starts
  fill("2026-05-15T09:00:00Z", 12.6, 0, 1),
  fill("2026-05-31T23:59:59.999Z", 0.4, -40, 2), // last millisecond of May
  fill("2026-06-01T00:00:00.000Z", 3, -100, 3), // first millisecond of June
  fill("2026-07-31T12:00:00Z", 1, 250, 4),
];
export const UNTIL = t("2026-08-15T00:00:00Z");
export const SRC: LedgerSource = {
  infoUrl: "http://venue.test/info",
  venue: "hyperliquid",
  account: "0x00000000000000000000000000000000000000aa",
  coin: "ETH",
  sinceMs: LEDGER_SINCE_MS,
  untilMs: UNTIL,
};
