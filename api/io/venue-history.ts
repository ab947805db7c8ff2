/**
 * The hedge account's history from the venue (`POST /info`): funding payments and fills over a
 * time range, paged the way the venue pages (at most 500 records per answer). Any failure, or
 * an answer that does not parse, is a VenueReadError: the caller reports unknown, not a guess.
 */

import type { Fill, FundingPayment } from "@kusd/core";
import { postInfo, VenueReadError } from "./hyperliquid.js";

export const VENUE_PAGE_SIZE = 500;
/** A runaway guard: 200 pages of 500 hourly records is over eleven years. */
export const MAX_PAGES = 200;

export type PagedRead<T> = { records: T[]; pages: number };

type Ctx = { url: string; request: string };

const num = (v: unknown, field: string, ctx: Ctx): number => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : Number.NaN;
  if (!Number.isFinite(n)) throw new VenueReadError(`venue record lacks a numeric ${field}`, ctx);
  return n;
};

const obj = (v: unknown, field: string, ctx: Ctx): Record<string, unknown> => {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new VenueReadError(`venue record lacks ${field}`, ctx);
  return v as Record<string, unknown>;
};

export function parseFundingRecord(raw: unknown, ctx: Ctx): FundingPayment {
  const r = obj(raw, "a funding record", ctx);
  const d = obj(r.delta, "delta", ctx);
  const nSamples = d.nSamples == null ? null : num(d.nSamples, "delta.nSamples", ctx);
  return {
    time: num(r.time, "time", ctx),
    coin: String(d.coin),
    usdc: num(d.usdc, "delta.usdc", ctx),
    szi: num(d.szi, "delta.szi", ctx),
    fundingRate: num(d.fundingRate, "delta.fundingRate", ctx),
    nSamples,
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

/**
 * Pages a time-ranged request: the next page starts 1 ms past the largest time of the last one
 * (fills come newest first within a page, so the largest, not the last element), and a page
 * shorter than 500 is the end. Records sharing the boundary millisecond across a full page
 * would be skipped; the venue's funding records are one per coin per hour and fills carry
 * distinct times in practice, and `key` drops any record seen twice.
 */
export async function pageByTime<T extends { time: number }>(
  infoUrl: string,
  body: Record<string, unknown>,
  startMs: number,
  endMs: number,
  parse: (raw: unknown, ctx: Ctx) => T,
  key: (r: T) => string,
  timeoutMs = 5_000,
): Promise<PagedRead<T>> {
  const seen = new Set<string>();
  const records: T[] = [];
  let startTime = startMs;
  for (let pages = 1; ; pages++) {
    if (pages > MAX_PAGES)
      throw new VenueReadError(`more than ${MAX_PAGES} pages`, { url: infoUrl, request: JSON.stringify(body) });
    const request = { ...body, startTime, endTime: endMs };
    const ctx = { url: infoUrl, request: JSON.stringify(request) };
    const raw = await postInfo(infoUrl, request, timeoutMs);
    if (!Array.isArray(raw)) throw new VenueReadError("venue answer is not a list", ctx);
    const page = raw.map((r) => parse(r, ctx));
    for (const r of page) {
      const k = key(r);
      if (seen.has(k)) continue;
      seen.add(k);
      records.push(r);
    }
    if (page.length < VENUE_PAGE_SIZE) return { records: records.sort((a, b) => a.time - b.time), pages };
    startTime = Math.max(...page.map((r) => r.time)) + 1;
  }
}

export const readUserFunding = (infoUrl: string, user: string, startMs: number, endMs: number, timeoutMs?: number) =>
  pageByTime(
    infoUrl,
    { type: "userFunding", user },
    startMs,
    endMs,
    parseFundingRecord,
    (r) => `${r.coin}:${r.time}`,
    timeoutMs,
  );

export const readUserFills = (infoUrl: string, user: string, startMs: number, endMs: number, timeoutMs?: number) =>
  pageByTime(infoUrl, { type: "userFillsByTime", user }, startMs, endMs, parseFill, (f) => String(f.tid), timeoutMs);

/** Both histories of the hedge account over [startMs, endMs]. */
export async function readHedgeHistory(
  infoUrl: string,
  user: string,
  startMs: number,
  endMs: number,
  timeoutMs?: number,
) {
  const [funding, fills] = await Promise.all([
    readUserFunding(infoUrl, user, startMs, endMs, timeoutMs),
    readUserFills(infoUrl, user, startMs, endMs, timeoutMs),
  ]);
  return { funding, fills };
}
