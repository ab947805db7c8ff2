/**
 * Answers to the Hyperliquid `POST /info` request types the reports read, in the venue's
 * own shapes (decimal strings, millisecond times, at most 500 records per time-range page).
 */
import { DAY, HOUR } from "../timeline.js";
import { accountAt, fundingRecords, hedgeFills } from "./hedge.js";
import { btcPriceAt, eightHourFundingRate, ethPriceAt, hourFloor, hourlyFundingRate } from "./market.js";

export const PAGE_LIMIT = 500;
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
  const end = typeof body.endTime === "number" ? body.endTime : now * 1000;
  return { start: body.startTime, end };
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
  return fundingRecords(ctx.now)
    .filter((r) => r.time >= start && r.time <= end)
    .slice(0, PAGE_LIMIT)
    .map((r) => ({
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

function fills(body: Record<string, unknown>, ctx: InfoContext, byTime: boolean) {
  const user = requireUser(body);
  if (!isHedge(user, ctx)) return [];
  let list = hedgeFills(ctx.now);
  if (byTime) {
    const { start, end } = timeRange(body, ctx.now);
    list = list.filter((f) => f.time >= start && f.time <= end).slice(0, PAGE_LIMIT);
  } else {
    list = list.slice(-2000);
  }
  // The venue lists fills newest first.
  return [...list].reverse().map((f) => ({
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
  }));
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
      return fills(req, ctx, false);
    case "userFillsByTime":
      return fills(req, ctx, true);
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
