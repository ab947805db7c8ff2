/**
 * Answers to the Hyperliquid `POST /info` request types the reports read, in the venue's
 * own shapes (decimal strings, millisecond times) and with its documented limits.
 *
 * Limits, from Hyperliquid's "Info endpoint" page
 * (https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/info-endpoint):
 * "Responses that take a time range will only return 500 elements or distinct blocks of data.
 * To query larger ranges, use the last returned timestamp as the next startTime for
 * pagination"; `userFills` "returns at most 2000 most recent fills"; `userFillsByTime`
 * "returns at most 2000 fills per response and only the 10000 most recent fills are
 * available".
 */
import { DAY, HOUR } from "../timeline.js";
import {
  accountAt,
  countAtOrBefore,
  type Fill,
  fillCountThrough,
  fundingCountThrough,
  fundingLog,
  hedgeFillLog,
  MARGIN_DEPOSITS,
  pseudoHash,
} from "./hedge.js";
import { btcPriceAt, eightHourFundingRate, ethPriceAt, hourFloor, hourlyFundingRate } from "./market.js";
import { emptyPortfolio, hedgePortfolio } from "./portfolio.js";

/** Items in one answer to a time-range request (`userFunding`, `fundingHistory`, `userNonFundingLedgerUpdates`). */
export const PAGE_LIMIT = 500;
/** Fills in one answer to `userFills` or `userFillsByTime`. */
export const FILLS_PER_ANSWER = 2_000;
/** Only an account's most recent fills exist for `userFills` and `userFillsByTime`; older ones are served by no request. */
export const FILL_RETENTION = 10_000;
export const HEDGE_COIN = "ETH";

export class InfoRequestError extends Error {
  override name = "InfoRequestError";
  constructor(
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

export type InfoContext = {
  /** Unix seconds "now" for the venue. */
  now: number;
  /** The operator's hedge account (lower-case compare). */
  hedgeAccount: string;
};

const s = (x: number, d = 6) => {
  const fixed = x.toFixed(d);
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, ".0") : fixed;
};

function timeRange(body: Record<string, unknown>, now: number): { start: number; end: number } {
  if (typeof body.startTime !== "number") throw new InfoRequestError("startTime (ms) is required");
  const end = typeof body.endTime === "number" ? Math.min(body.endTime, now * 1000) : now * 1000;
  return { start: body.startTime, end };
}

/** `userNonFundingLedgerUpdates` takes startTime as optional (the venue's own SDKs mark it so). */
function optionalTimeRange(body: Record<string, unknown>, now: number): { start: number; end: number } {
  return timeRange({ ...body, startTime: typeof body.startTime === "number" ? body.startTime : 0 }, now);
}

/** Index range [from, to) of an ascending list of times that lie within [start, end] (ms). */
function indexesWithin(times: readonly number[], start: number, end: number): { from: number; to: number } {
  return { from: countAtOrBefore(times, start - 1), to: countAtOrBefore(times, end) };
}

const isHedge = (user: unknown, ctx: InfoContext) =>
  typeof user === "string" && user.toLowerCase() === ctx.hedgeAccount.toLowerCase();

function requireUser(body: Record<string, unknown>): string {
  if (typeof body.user !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(body.user)) {
    throw new InfoRequestError("user must be a 0x-prefixed 40-hex address");
  }
  return body.user;
}

function clearinghouseState(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  const time = ctx.now * 1000;
  if (!isHedge(user, ctx)) {
    const zero = { accountValue: "0.0", totalNtlPos: "0.0", totalRawUsd: "0.0", totalMarginUsed: "0.0" };
    return {
      marginSummary: zero,
      crossMarginSummary: zero,
      crossMaintenanceMarginUsed: "0.0",
      withdrawable: "0.0",
      assetPositions: [],
      time,
    };
  }
  const a = accountAt(ctx.now);
  const notional = a.shortEth * a.markPx;
  const leverage = 5;
  const marginUsed = notional / leverage;
  const summary = {
    accountValue: s(a.equityUsd),
    totalNtlPos: s(notional),
    totalRawUsd: s(a.equityUsd + notional),
    totalMarginUsed: s(marginUsed),
  };
  const cumFunding = -a.fundingUsd; // the venue reports funding paid as positive
  return {
    marginSummary: summary,
    crossMarginSummary: summary,
    crossMaintenanceMarginUsed: s(notional * 0.02),
    withdrawable: s(Math.max(0, a.equityUsd - marginUsed)),
    assetPositions:
      a.shortEth === 0
        ? []
        : [
            {
              type: "oneWay",
              position: {
                coin: HEDGE_COIN,
                szi: s(-a.shortEth, 4),
                leverage: { type: "cross", value: leverage },
                entryPx: s(a.entryPx, 2),
                positionValue: s(notional),
                unrealizedPnl: s(a.unrealizedPnlUsd),
                returnOnEquity: s(a.unrealizedPnlUsd / marginUsed),
                liquidationPx: s(a.markPx + (a.equityUsd - notional * 0.02) / a.shortEth, 2),
                marginUsed: s(marginUsed),
                maxLeverage: 25,
                cumFunding: { allTime: s(cumFunding), sinceOpen: s(cumFunding), sinceChange: s(cumFunding) },
              },
            },
          ],
    time,
  };
}

function userFunding(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  const { start, end } = timeRange(body, ctx.now);
  if (!isHedge(user, ctx)) return [];
  const { records, times } = fundingLog(ctx.now);
  const range = indexesWithin(times, start, end);
  const to = Math.min(range.to, fundingCountThrough(ctx.now));
  return records.slice(range.from, Math.min(to, range.from + PAGE_LIMIT)).map((r) => ({
    time: r.time,
    hash: r.hash,
    delta: {
      type: "funding",
      coin: r.coin,
      usdc: s(r.usdc),
      szi: s(r.szi, 4),
      fundingRate: s(r.fundingRate, 10),
      nSamples: r.nSamples,
    },
  }));
}

/** The fills the venue still holds at `now`: the account's most recent FILL_RETENTION, as an index range of the log. */
function keptFills(now: number): { fills: readonly Fill[]; times: readonly number[]; from: number; to: number } {
  const { fills, times } = hedgeFillLog(now);
  const to = fillCountThrough(now);
  return { fills, times, from: Math.max(0, to - FILL_RETENTION), to };
}

// Each fill is serialized once per process: a userFillsByTime answer holds up to 2,000.
const wireFills = new Map<Fill, Record<string, unknown>>();

function toWire(f: Fill): Record<string, unknown> {
  let wire = wireFills.get(f);
  if (!wire) {
    wire = {
      coin: f.coin,
      px: s(f.px, 2),
      sz: s(f.sz, 4),
      side: f.side,
      time: f.time,
      startPosition: s(f.startPosition, 4),
      dir: f.dir,
      closedPnl: s(f.closedPnl),
      hash: f.hash,
      oid: f.oid,
      crossed: f.crossed,
      fee: s(f.fee),
      tid: f.tid,
      feeToken: f.feeToken,
    };
    wireFills.set(f, wire);
  }
  return wire;
}

/**
 * `userFills`: the latest 2,000 kept fills, newest first, as the venue lists them (GoldRush's
 * wire-equal `userFills` reference: "ordered most-recent-first").
 */
function userFills(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  if (!isHedge(user, ctx)) return [];
  const { fills, from, to } = keptFills(ctx.now);
  return fills
    .slice(Math.max(from, to - FILLS_PER_ANSWER), to)
    .reverse()
    .map(toWire);
}

/**
 * `userFillsByTime`: kept fills within [startTime, endTime], in chronological order and, when
 * the range holds more than 2,000, the oldest 2,000 of it, so that the docs' paging (the last
 * returned time + 1 as the next startTime) walks forward through the range. Sources: the
 * docs' pagination rule above, and the `reversed` flag of the nktkas/hyperliquid SDK
 * (src/api/info/_methods/userFillsByTime.ts, 2026-08): "If true, fills are returned in reverse
 * chronological order (newest first)", so the default order is oldest first. With `reversed`
 * the answer is the newest 2,000 of the range, newest first (the subset is our reading; the
 * SDK documents only the order).
 */
function userFillsByTime(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  const { start, end } = timeRange(body, ctx.now);
  if (!isHedge(user, ctx)) return [];
  const kept = keptFills(ctx.now);
  const range = indexesWithin(kept.times, start, end);
  const from = Math.max(range.from, kept.from);
  const to = Math.min(range.to, kept.to);
  if (to <= from) return [];
  if (body.reversed === true) {
    return kept.fills
      .slice(Math.max(from, to - FILLS_PER_ANSWER), to)
      .reverse()
      .map(toWire);
  }
  return kept.fills.slice(from, Math.min(to, from + FILLS_PER_ANSWER)).map(toWire);
}

/**
 * `userNonFundingLedgerUpdates`: the account's USDC movements other than funding, oldest first,
 * 500 per answer. The hedge's only such movements are its margin deposits.
 */
function userNonFundingLedgerUpdates(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  const { start, end } = optionalTimeRange(body, ctx.now);
  if (!isHedge(user, ctx)) return [];
  return MARGIN_DEPOSITS.map((d, i) => ({
    time: d.at * 1000,
    hash: pseudoHash(i, 37),
    delta: { type: "deposit", usdc: s(d.usd) },
  }))
    .filter((u) => u.time >= start && u.time <= end)
    .slice(0, PAGE_LIMIT);
}

function portfolio(body: Record<string, unknown>, ctx: InfoContext) {
  const user = requireUser(body);
  return isHedge(user, ctx) ? hedgePortfolio(ctx.now, (x) => s(x)) : emptyPortfolio();
}

function fundingHistory(body: Record<string, unknown>, ctx: InfoContext) {
  if (body.coin !== HEDGE_COIN && body.coin !== "BTC") throw new InfoRequestError(`unknown coin ${String(body.coin)}`);
  const { start, end } = timeRange(body, ctx.now);
  const out: { coin: string; fundingRate: string; premium: string; time: number }[] = [];
  const last = Math.min(end / 1000, ctx.now);
  for (let t = hourFloor(Math.ceil(start / 1000) + HOUR - 1); t <= last && out.length < PAGE_LIMIT; t += HOUR) {
    const rate = hourlyFundingRate(t) * (body.coin === "BTC" ? 0.8 : 1);
    out.push({ coin: String(body.coin), fundingRate: s(rate, 10), premium: s(rate - 0.0000125, 10), time: t * 1000 });
  }
  return out;
}

function assetCtx(coin: "BTC" | "ETH", now: number) {
  const px = coin === "ETH" ? ethPriceAt(now) : btcPriceAt(now);
  const prev = coin === "ETH" ? ethPriceAt(now - DAY) : btcPriceAt(now - DAY);
  const funding = hourlyFundingRate(now) * (coin === "BTC" ? 0.8 : 1);
  return {
    funding: s(funding, 10),
    openInterest: coin === "ETH" ? "412345.1234" : "23456.789",
    prevDayPx: s(prev, 2),
    dayNtlVlm: coin === "ETH" ? "1523456789.0" : "3456789012.0",
    premium: s(funding - 0.0000125, 10),
    oraclePx: s(px, 2),
    markPx: s(px, 2),
    midPx: s(px, 2),
    impactPxs: [s(px - 0.1, 2), s(px + 0.1, 2)],
    dayBaseVlm: coin === "ETH" ? "585000.0" : "35000.0",
  };
}

const META = {
  universe: [
    { name: "BTC", szDecimals: 5, maxLeverage: 40 },
    { name: "ETH", szDecimals: 4, maxLeverage: 25 },
  ],
};

function predictedFundings(ctx: InfoContext) {
  const nextHour = (hourFloor(ctx.now) + HOUR) * 1000;
  const next8h = (Math.floor(ctx.now / (8 * HOUR)) + 1) * 8 * HOUR * 1000;
  return (["BTC", "ETH"] as const).map((coin) => {
    const k = coin === "BTC" ? 0.8 : 1;
    return [
      coin,
      [
        [
          "BinPerp",
          { fundingRate: s(eightHourFundingRate(ctx.now) * k, 10), nextFundingTime: next8h, fundingIntervalHours: 8 },
        ],
        [
          "HlPerp",
          { fundingRate: s(hourlyFundingRate(ctx.now) * k, 10), nextFundingTime: nextHour, fundingIntervalHours: 1 },
        ],
      ],
    ];
  });
}

export function answerInfo(body: unknown, ctx: InfoContext): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new InfoRequestError("body must be a JSON object");
  const req = body as Record<string, unknown>;
  switch (req.type) {
    case "clearinghouseState":
      return clearinghouseState(req, ctx);
    case "userFunding":
      return userFunding(req, ctx);
    case "userFills":
      return userFills(req, ctx);
    case "userFillsByTime":
      return userFillsByTime(req, ctx);
    case "userNonFundingLedgerUpdates":
      return userNonFundingLedgerUpdates(req, ctx);
    case "portfolio":
      return portfolio(req, ctx);
    case "fundingHistory":
      return fundingHistory(req, ctx);
    case "meta":
      return META;
    case "metaAndAssetCtxs":
      return [META, [assetCtx("BTC", ctx.now), assetCtx("ETH", ctx.now)]];
    case "allMids":
      return { BTC: s(btcPriceAt(ctx.now), 1), ETH: s(ethPriceAt(ctx.now), 2) };
    case "predictedFundings":
      return predictedFundings(ctx);
    default:
      throw new InfoRequestError(`unknown request type ${JSON.stringify(req.type)}`);
  }
}
