/**
 * The venue's history records in the shapes the reports use: funding rates (`fundingHistory`),
 * the account's funding payments (`userFunding`), fills (`userFillsByTime`) and its other ledger
 * movements (`userNonFundingLedgerUpdates`). A record that does not parse fails the whole read.
 */
import type { Fill, FundingPayment } from "@kusd/core";
import { venueNumber as num, venueObject as obj } from "./post-info.js";

type Ctx = { url: string; request: string };

/** One hourly funding rate of a coin. */
export type FundingRate = { time: number; rate: number };

/** A deposit, withdrawal or transfer of the account (signed: + into the account). */
export type LedgerUpdate = { time: number; hash: string; type: string; usdc: number };

export function parseFundingRate(raw: unknown, ctx: Ctx): FundingRate {
  const r = obj(raw, "a funding rate record", ctx);
  return { time: num(r.time, "time", ctx), rate: num(r.fundingRate, "fundingRate", ctx) };
}

export function parseFundingPayment(raw: unknown, ctx: Ctx): FundingPayment {
  const r = obj(raw, "a funding record", ctx);
  const d = obj(r.delta, "delta", ctx);
  return {
    time: num(r.time, "time", ctx),
    coin: String(d.coin),
    usdc: num(d.usdc, "delta.usdc", ctx),
    szi: num(d.szi, "delta.szi", ctx),
    fundingRate: num(d.fundingRate, "delta.fundingRate", ctx),
    nSamples: d.nSamples == null ? null : num(d.nSamples, "delta.nSamples", ctx),
  };
}

export function parseFill(raw: unknown, ctx: Ctx): Fill {
  const f = obj(raw, "a fill", ctx);
  return {
    time: num(f.time, "time", ctx),
    coin: String(f.coin),
    tid: num(f.tid, "tid", ctx),
    closedPnl: num(f.closedPnl, "closedPnl", ctx),
    fee: num(f.fee, "fee", ctx),
    feeToken: typeof f.feeToken === "string" ? f.feeToken : "USDC",
  };
}

/** Withdrawals and transfers out are negative, so the updates sum to the net deposits. */
const OUTGOING = new Set(["withdraw"]);

export function parseLedgerUpdate(raw: unknown, ctx: Ctx): LedgerUpdate {
  const r = obj(raw, "a ledger update", ctx);
  const d = obj(r.delta, "delta", ctx);
  const type = String(d.type);
  const usdc = d.usdc === undefined ? 0 : num(d.usdc, "delta.usdc", ctx);
  return {
    time: num(r.time, "time", ctx),
    hash: String(r.hash),
    type,
    usdc: OUTGOING.has(type) ? -Math.abs(usdc) : usdc,
  };
}
