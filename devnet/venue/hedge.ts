/**
 * The operator's hedge account on the venue: a short ETH perpetual sized to vault v1's
 * mirror, margined with USDC, and traded the way an actively rebalanced hedge is: the plan's
 * step changes, and between them a small trim to the target at every 15-minute mark. Fills,
 * funding payments and equity are pure functions of time derived from the market model and
 * the plan below, so the chain's `l1Assets` mirror updates and the venue's answers agree to the
 * cent at any time.
 *
 * The fills and funding payments are computed once per process, in order, with running sums
 * (position, entry price, closed PnL, fees, volume, funding), so any question about a moment
 * is a binary search.
 */
import { createRng, hashUnit } from "../rng.js";
import { DATES, DAY, HISTORY_START, HOUR, iso } from "../timeline.js";
import { ethPriceAt, hourFloor, hourlyFundingRate } from "./market.js";

export const TAKER_FEE_RATE = 0.00035;

/** Target short size in ETH from each date on. */
export const HEDGE_PLAN: readonly { at: number; shortEth: number }[] = [
  { at: iso("2026-05-15T09:00:00Z"), shortEth: 12 },
  { at: iso("2026-06-20T14:00:00Z"), shortEth: 18 },
  { at: iso("2026-08-25T10:00:00Z"), shortEth: 14 },
  { at: iso("2026-10-01T08:00:00Z"), shortEth: 20 },
];

/** The position is traded to its target at every multiple of this many seconds. */
export const REBALANCE_INTERVAL = 15 * 60;

/**
 * Between the plan's steps the target moves the way the hedged exposure does: a slow swing
 * (±3 % over 2.7 days) and a jitter of ±0.4 % per interval, so each mark trims the position by
 * a few hundredths of an ETH, either way, and a plan step is one large fill.
 */
const TARGET_SWING = { amplitude: 0.03, periodSeconds: 2.7 * DAY };
const TARGET_JITTER = 0.004;

/** A rebalance order fills within this many milliseconds after its mark. */
const FILL_LATENCY_MS = 20_000;

/** Trims worth less than the venue's minimum order value (USD) wait for a later mark. */
const MIN_ORDER_USD = 10;

/** USDC credited to the account: the opening margin, then the on-chain bridge deposit. */
export const MARGIN_DEPOSITS: readonly { at: number; usd: number; onChain: boolean }[] = [
  { at: DATES.hedgeMarginDeposit, usd: 60_000, onChain: false },
  { at: DATES.venueDeposit, usd: 50_000, onChain: true },
];

/** Hours whose funding the venue reports aggregated into one record per 8 hours. */
export const AGGREGATED_FUNDING = { from: iso("2026-06-01T00:00:00Z"), to: iso("2026-06-08T00:00:00Z"), hours: 8 };

export type Fill = {
  coin: string;
  px: number;
  sz: number;
  side: "A" | "B";
  time: number; // ms
  startPosition: number;
  dir: "Open Short" | "Close Short";
  closedPnl: number;
  hash: string;
  oid: number;
  tid: number;
  fee: number;
  feeToken: "USDC";
  crossed: boolean;
};

export type FundingRecord = {
  time: number; // ms
  hash: string;
  coin: string;
  usdc: number;
  szi: number;
  fundingRate: number;
  nSamples: number | null;
};

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** A transaction-hash-shaped label: deterministic, and cheap enough for tens of thousands. */
export function pseudoHash(key: number, salt: number): string {
  const next = createRng(Math.imul(key ^ 0x9e3779b9, 0x85ebca6b) ^ salt);
  let hex = "0x";
  for (let i = 0; i < 8; i++)
    hex += Math.floor(next() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return hex;
}

/** Index of the first element of an ascending list greater than `x`, i.e. how many are ≤ `x`. */
export function countAtOrBefore(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function planShortAt(t: number): number {
  let short = 0;
  for (const step of HEDGE_PLAN) if (step.at <= t) short = step.shortEth;
  return short;
}

function targetShortAt(slot: number): number {
  const t = slot * REBALANCE_INTERVAL;
  const plan = planShortAt(t);
  if (plan === 0) return 0;
  const swing = TARGET_SWING.amplitude * Math.sin((2 * Math.PI * (t - HISTORY_START)) / TARGET_SWING.periodSeconds);
  const jitter = TARGET_JITTER * (2 * hashUnit(slot, 23) - 1);
  return round(plan * (1 + swing + jitter), 4);
}

/** The fills in time order, with the account's state after each one. */
const book = {
  fills: [] as Fill[],
  times: [] as number[],
  shortAfter: [] as number[],
  entryAfter: [] as number[],
  closedPnlThrough: [] as number[],
  feesThrough: [] as number[],
  volumeThrough: [] as number[],
  nextSlot: Math.ceil(HEDGE_PLAN[0]!.at / REBALANCE_INTERVAL),
};

/** The book grows 30 days past the latest moment asked about, so it is built a few times per process. */
const BOOK_GROWTH_SLOTS = (30 * DAY) / REBALANCE_INTERVAL;

function tradeToTarget(slot: number) {
  const n = book.fills.length;
  const short = n ? book.shortAfter[n - 1]! : 0;
  const entry = n ? book.entryAfter[n - 1]! : 0;
  const delta = round(targetShortAt(slot) - short, 4);
  const time = slot * REBALANCE_INTERVAL * 1000 + Math.floor(hashUnit(slot, 29) * FILL_LATENCY_MS);
  const px = ethPriceAt(Math.floor(time / 1000));
  const sz = Math.abs(delta);
  if (sz * px < MIN_ORDER_USD) return;
  const opening = delta > 0;
  const closedPnl = opening ? 0 : round((entry - px) * sz, 6);
  const fee = round(px * sz * TAKER_FEE_RATE, 6);
  book.fills.push({
    coin: "ETH",
    px,
    sz,
    side: opening ? "A" : "B",
    time,
    startPosition: -short,
    dir: opening ? "Open Short" : "Close Short",
    closedPnl,
    hash: pseudoHash(slot, 31),
    oid: 9_000_000 + n,
    tid: 7_000_000 + n,
    fee,
    feeToken: "USDC",
    crossed: true,
  });
  book.times.push(time);
  book.shortAfter.push(round(short + delta, 4));
  book.entryAfter.push(opening ? (entry * short + px * sz) / (short + sz) : entry);
  book.closedPnlThrough.push((n ? book.closedPnlThrough[n - 1]! : 0) + closedPnl);
  book.feesThrough.push((n ? book.feesThrough[n - 1]! : 0) + fee);
  book.volumeThrough.push((n ? book.volumeThrough[n - 1]! : 0) + px * sz);
}

/** Makes sure every fill at or before `t` (seconds) is in the book. */
function ensureFillsThrough(t: number) {
  if (book.nextSlot * REBALANCE_INTERVAL > t) return;
  const last = Math.floor(t / REBALANCE_INTERVAL) + BOOK_GROWTH_SLOTS;
  for (; book.nextSlot <= last; book.nextSlot++) tradeToTarget(book.nextSlot);
}

/** How many of the hedge's fills happened at or before `t` (seconds). */
export function fillCountThrough(t: number): number {
  ensureFillsThrough(t);
  return countAtOrBefore(book.times, t * 1000);
}

/** The hedge's fills in time order; entries past `fillCountThrough(now)` lie in the future. */
export function hedgeFillLog(t: number): { fills: readonly Fill[]; times: readonly number[] } {
  ensureFillsThrough(t);
  return { fills: book.fills, times: book.times };
}

/** The hedge's fills up to `untilT` (seconds), oldest first. */
export function hedgeFills(untilT: number): Fill[] {
  return book.fills.slice(0, fillCountThrough(untilT));
}

/** Notional traded (USD) up to `t` (seconds). */
export function tradedNotionalThrough(t: number): number {
  const i = fillCountThrough(t);
  return i ? book.volumeThrough[i - 1]! : 0;
}

/** Short size (ETH, positive) and average entry price held at time `t`. */
export function positionAt(t: number): { shortEth: number; entryPx: number } {
  const i = fillCountThrough(t);
  return i ? { shortEth: book.shortAfter[i - 1]!, entryPx: book.entryAfter[i - 1]! } : { shortEth: 0, entryPx: 0 };
}

/** Funding records in time order (their `time` is the last hour they cover), with running sums. */
const funding = {
  records: [] as FundingRecord[],
  times: [] as number[],
  usdcThrough: [] as number[],
  nextHour: hourFloor(HEDGE_PLAN[0]!.at) + HOUR,
};

function settleFundingFrom(t: number): number {
  const aggregated = t >= AGGREGATED_FUNDING.from && t < AGGREGATED_FUNDING.to;
  const span = aggregated ? AGGREGATED_FUNDING.hours : 1;
  let usdc = 0;
  let rateSum = 0;
  let szi = 0;
  for (let h = 0; h < span; h++) {
    const ht = t + h * HOUR;
    const { shortEth } = positionAt(ht);
    const rate = hourlyFundingRate(ht);
    usdc += shortEth * ethPriceAt(ht) * rate;
    rateSum += rate;
    szi = -shortEth;
  }
  const end = t + (span - 1) * HOUR;
  const record = {
    time: end * 1000,
    hash: "0x0000000000000000000000000000000000000000000000000000000000000000",
    coin: "ETH",
    usdc: round(usdc, 6),
    szi,
    fundingRate: round(rateSum / span, 10),
    nSamples: aggregated ? span : null,
  };
  const n = funding.records.length;
  funding.records.push(record);
  funding.times.push(record.time);
  funding.usdcThrough.push((n ? funding.usdcThrough[n - 1]! : 0) + record.usdc);
  return t + span * HOUR;
}

function ensureFundingThrough(t: number) {
  if (funding.nextHour > t) return;
  const last = t + 30 * DAY;
  while (funding.nextHour <= last) funding.nextHour = settleFundingFrom(funding.nextHour);
}

/** How many funding records were paid at or before `t` (seconds). */
export function fundingCountThrough(t: number): number {
  ensureFundingThrough(t);
  return countAtOrBefore(funding.times, t * 1000);
}

/** Funding records in time order; entries past `fundingCountThrough(now)` lie in the future. */
export function fundingLog(t: number): { records: readonly FundingRecord[]; times: readonly number[] } {
  ensureFundingThrough(t);
  return { records: funding.records, times: funding.times };
}

/** Funding payments up to `untilT`; positive `usdc` is received by the short. */
export function fundingRecords(untilT: number): FundingRecord[] {
  return funding.records.slice(0, fundingCountThrough(untilT));
}

export type AccountSummary = {
  t: number;
  markPx: number;
  shortEth: number;
  entryPx: number;
  depositsUsd: number;
  fundingUsd: number;
  closedPnlUsd: number;
  feesUsd: number;
  unrealizedPnlUsd: number;
  equityUsd: number;
};

export const depositsThrough = (t: number) => MARGIN_DEPOSITS.filter((d) => d.at <= t).reduce((s, d) => s + d.usd, 0);

/** Account equity at time `t`: deposits + funding + closed PnL − fees + unrealized PnL. */
export function accountAt(t: number): AccountSummary {
  const markPx = ethPriceAt(t);
  const fills = fillCountThrough(t);
  const { shortEth, entryPx } = positionAt(t);
  const records = fundingCountThrough(t);
  const depositsUsd = depositsThrough(t);
  const fundingUsd = records ? funding.usdcThrough[records - 1]! : 0;
  const closedPnlUsd = fills ? book.closedPnlThrough[fills - 1]! : 0;
  const feesUsd = fills ? book.feesThrough[fills - 1]! : 0;
  const unrealizedPnlUsd = (entryPx - markPx) * shortEth;
  const equityUsd = depositsUsd + fundingUsd + closedPnlUsd - feesUsd + unrealizedPnlUsd;
  return {
    t,
    markPx,
    shortEth,
    entryPx: round(entryPx, 2),
    depositsUsd,
    fundingUsd: round(fundingUsd, 6),
    closedPnlUsd: round(closedPnlUsd, 6),
    feesUsd: round(feesUsd, 6),
    unrealizedPnlUsd: round(unrealizedPnlUsd, 6),
    equityUsd: round(equityUsd, 6),
  };
}
