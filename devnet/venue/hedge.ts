/**
 * The operator's hedge account on the venue: a short ETH perpetual sized to vault v1's
 * mirror, margined with USDC. Fills, funding payments and equity are derived from the market
 * model and the plan below, so the chain's `l1Assets` mirror updates and the venue's answers
 * agree to the cent at any time.
 */
import { keccak256, stringToHex } from "viem";
import { DATES, HOUR, iso } from "../timeline.js";
import { ethPriceAt, hourFloor, hourlyFundingRate } from "./market.js";

export const TAKER_FEE_RATE = 0.00035;

/** Target short size in ETH from each date on. */
export const HEDGE_PLAN: readonly { at: number; shortEth: number }[] = [
  { at: iso("2026-05-15T09:00:00Z"), shortEth: 12 },
  { at: iso("2026-06-20T14:00:00Z"), shortEth: 18 },
  { at: iso("2026-08-25T10:00:00Z"), shortEth: 14 },
  { at: iso("2026-10-01T08:00:00Z"), shortEth: 20 },
];

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

function fakeHash(label: string): string {
  return keccak256(stringToHex(label));
}

export function hedgeFills(untilT: number): Fill[] {
  const fills: Fill[] = [];
  let short = 0;
  let entry = 0;
  HEDGE_PLAN.forEach((step, i) => {
    if (step.at > untilT) return;
    const px = ethPriceAt(step.at);
    const delta = round(step.shortEth - short, 4);
    if (delta === 0) return;
    const sz = Math.abs(delta);
    const opening = delta > 0;
    const closedPnl = opening ? 0 : round((entry - px) * sz, 6);
    fills.push({
      coin: "ETH",
      px,
      sz,
      side: opening ? "A" : "B",
      time: step.at * 1000,
      startPosition: -short,
      dir: opening ? "Open Short" : "Close Short",
      closedPnl,
      hash: fakeHash(`fill:${i}`),
      oid: 9_000_000 + i,
      tid: 7_000_000 + i,
      fee: round(px * sz * TAKER_FEE_RATE, 6),
      feeToken: "USDC",
      crossed: true,
    });
    if (opening) entry = (entry * short + px * sz) / (short + sz);
    short = step.shortEth;
  });
  return fills;
}

/** Short size (ETH, positive) and average entry price held at time `t`. */
export function positionAt(t: number): { shortEth: number; entryPx: number } {
  let short = 0;
  let entry = 0;
  for (const f of hedgeFills(t)) {
    if (f.dir === "Open Short") {
      entry = (entry * short + f.px * f.sz) / (short + f.sz);
      short += f.sz;
    } else {
      short -= f.sz;
    }
  }
  return { shortEth: round(short, 4), entryPx: entry };
}

// Records only change on the hour; the simulator pages through them many times per request burst.
const recordsByHour = new Map<number, FundingRecord[]>();

/** Funding payments up to `untilT`; positive `usdc` is received by the short. */
export function fundingRecords(untilT: number): FundingRecord[] {
  const key = hourFloor(untilT);
  let records = recordsByHour.get(key);
  if (!records) {
    if (recordsByHour.size > 64) recordsByHour.clear();
    records = computeFundingRecords(key);
    recordsByHour.set(key, records);
  }
  return records;
}

function computeFundingRecords(untilT: number): FundingRecord[] {
  const records: FundingRecord[] = [];
  const first = HEDGE_PLAN[0]!.at;
  let t = hourFloor(first) + HOUR;
  while (t <= untilT) {
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
    if (end > untilT) break;
    records.push({
      time: end * 1000,
      hash: "0x0000000000000000000000000000000000000000000000000000000000000000",
      coin: "ETH",
      usdc: round(usdc, 6),
      szi,
      fundingRate: round(rateSum / span, 10),
      nSamples: aggregated ? span : null,
    });
    t += span * HOUR;
  }
  return records;
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

/** Account equity at time `t`: deposits + funding + closed PnL − fees + unrealized PnL. */
export function accountAt(t: number): AccountSummary {
  const markPx = ethPriceAt(t);
  const { shortEth, entryPx } = positionAt(t);
  const fills = hedgeFills(t);
  const depositsUsd = MARGIN_DEPOSITS.filter((d) => d.at <= t).reduce((s, d) => s + d.usd, 0);
  const fundingUsd = fundingRecords(t).reduce((s, r) => s + r.usdc, 0);
  const closedPnlUsd = fills.reduce((s, f) => s + f.closedPnl, 0);
  const feesUsd = fills.reduce((s, f) => s + f.fee, 0);
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
