/**
 * Every read behind GET /api/apy, gathered into the plain ApyInputs the report is built from
 * (packages/core/src/yield/apy/apy-report.ts): the venue's 60-day funding history, current rates and the hedge
 * account; the indexed LST rates, skUSD share prices and yield distributions; the incentive
 * escrow read at the indexed head. A venue that cannot be read is recorded with the reason,
 * and a chain read that fails is null: unknown, never guessed.
 */

import type {
  ApyInputs,
  EscrowInputs,
  EscrowReads,
  MarketPeer,
  PredictedFundings,
  SharePriceRow,
  VenueInputs,
} from "@kusd/core";
import { DAY, FUNDING_WINDOW_DAYS, REALIZED_WINDOW_DAYS } from "@kusd/core";
import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import type { Address } from "viem";
import { PinnedReader, type ReadSpec } from "../../packages/verify/src/index.js";
import * as schema from "../../ponder.schema.js";
import type { ReportContext } from "../context.js";
import { postInfo, VenueReadError } from "../io/hyperliquid.js";
import { indexedHead } from "../io/indexed-reads.js";
import { pageByTime } from "../io/venue-history.js";

/** The venue's hourly funding rates for `coin` in [fromMs, toMs], paged like every venue history read. */
async function fundingHistory(url: string, coin: string, fromMs: number, toMs: number): Promise<number[]> {
  const parse = (raw: unknown, ctx: { url: string; request: string }) => {
    const r = raw as { fundingRate?: unknown; time?: unknown };
    const rate = Number(r.fundingRate);
    if (typeof r.time !== "number" || !Number.isFinite(rate))
      throw new VenueReadError("funding record lacks fundingRate or time", ctx);
    return { time: r.time, rate };
  };
  const { records } = await pageByTime(url, { type: "fundingHistory", coin }, fromMs, toMs, parse, (r) =>
    String(r.time),
  );
  return records.map((r) => r.rate);
}

/** All three venue reads or none: one that fails makes the venue unknown this time. */
async function readVenue(ctx: ReportContext, now: number): Promise<VenueInputs> {
  const { name, url, account, coin } = ctx.network.reporting.venue;
  const unknown = (error: string): VenueInputs => ({
    name,
    url,
    account,
    coin,
    error,
    hourlyFundingRates: [],
    predicted: [],
    hedgeAccount: null,
  });
  if (!url) return unknown("venue not configured");
  try {
    const [hourlyFundingRates, predicted] = await Promise.all([
      fundingHistory(url, coin, (now - FUNDING_WINDOW_DAYS * DAY) * 1000, now * 1000),
      postInfo(url, { type: "predictedFundings" }) as Promise<PredictedFundings>,
    ]);
    const state = ctx.venue ? await ctx.venue.clearinghouseState(account) : null;
    // A client that reports no positions array holds none (the report has always read it so).
    const hedgeAccount = state && {
      equityUsd: state.equityUsd,
      notionalUsd: state.notionalUsd,
      positions: (state.positions ?? []).map((p) => ({ size: p.size })),
    };
    return { name, url, account, coin, error: null, hourlyFundingRates, predicted, hedgeAccount };
  } catch (e) {
    if (!(e instanceof VenueReadError)) throw e;
    return unknown(e.message);
  }
}

/** LST rate observations of the last 8 days: the 7-day average and one day before it. */
async function readLstRates(ctx: ReportContext, now: number): Promise<ApyInputs["lstRates"]> {
  const l = schema.lstRate;
  const rows = await ctx.db
    .select()
    .from(l)
    .where(gte(l.timestamp, BigInt(now - 8 * DAY)))
    .orderBy(asc(l.timestamp));
  return rows.map((r) => ({ symbol: r.symbol, timestamp: r.timestamp, rate: r.rate }));
}

/**
 * The latest skUSD share price and the window's start: the last one at least 30 days older,
 * or the first one ever when the history is shorter (the report then says the window is clamped).
 */
async function readSharePrices(ctx: ReportContext, windowDays: number): Promise<ApyInputs["sharePrices"]> {
  const sp = schema.sharePrice;
  const row = (
    r: { blockNumber: bigint; timestamp: bigint; assetsPerShare: bigint } | undefined,
  ): SharePriceRow | null =>
    r ? { blockNumber: r.blockNumber, timestamp: r.timestamp, assetsPerShare: r.assetsPerShare } : null;
  const [latest] = await ctx.db
    .select()
    .from(sp)
    .where(eq(sp.vaultKey, "skUSD"))
    .orderBy(desc(sp.blockNumber))
    .limit(1);
  if (!latest) return { latest: null, windowStart: null };
  const target = BigInt(Number(latest.timestamp) - windowDays * DAY);
  let [start] = await ctx.db
    .select()
    .from(sp)
    .where(and(eq(sp.vaultKey, "skUSD"), lte(sp.timestamp, target)))
    .orderBy(desc(sp.timestamp))
    .limit(1);
  start ??= (await ctx.db.select().from(sp).where(eq(sp.vaultKey, "skUSD")).orderBy(asc(sp.blockNumber)).limit(1))[0];
  return { latest: row(latest), windowStart: row(start) };
}

/** Each escrow read by the field of EscrowReads it fills, in the order they are sent. */
function escrowReadSpecs(escrow: Address, skUSD: Address, operator: Address): Record<keyof EscrowReads, ReadSpec> {
  return {
    targetApyBps: { to: escrow, signature: "targetApyBps()(uint256)" },
    tvlCap: { to: escrow, signature: "tvlCap()(uint256)" },
    endsAt: { to: escrow, signature: "endsAt()(uint256)" },
    totalFunded: { to: escrow, signature: "totalFunded()(uint256)" },
    totalDistributed: { to: escrow, signature: "totalDistributed()(uint256)" },
    balance: { to: escrow, signature: "balance()(uint256)" },
    totalAssets: { to: skUSD, signature: "totalAssets()(uint256)" },
    yieldVestingPeriod: { to: skUSD, signature: "yieldVestingPeriod()(uint256)" },
    insiderShares: { to: skUSD, signature: "balanceOf(address)(uint256)", args: [operator] },
    totalSupply: { to: skUSD, signature: "totalSupply()(uint256)" },
  };
}

/** The escrow and skUSD at `blockNumber`, each read null on failure; null without an escrow. */
async function readEscrow(ctx: ReportContext, blockNumber: bigint): Promise<EscrowInputs | null> {
  const n = ctx.network;
  const escrow = n.reporting.incentiveEscrow;
  if (!escrow) return null;
  const r = new PinnedReader(ctx.base, blockNumber, n.reporting.publicRpc.base);
  const vault = n.stakingVaults.skUSD.address;
  const specs = escrowReadSpecs(escrow, vault, n.reporting.operator);
  const keys = Object.keys(specs) as (keyof EscrowReads)[];
  const values = await Promise.all(keys.map((k) => r.call<bigint>(specs[k]).catch(() => null)));
  const reads = Object.fromEntries(keys.map((k, j) => [k, values[j] ?? null])) as EscrowReads;
  const ve = schema.vaultEvent;
  const [y] = await ctx.db
    .select()
    .from(ve)
    .where(and(eq(ve.vaultKey, "skUSD"), eq(ve.kind, "yield")))
    .orderBy(desc(ve.blockNumber))
    .limit(1);
  const command = (k: keyof EscrowReads, field: string, decimals?: number) =>
    r.command(specs[k], field, reads[k] ?? "?", decimals);
  return {
    address: escrow,
    token: n.kUSD.address,
    vault,
    insider: n.reporting.operator,
    reads,
    lastYield: y ? { timestamp: y.timestamp, assets: y.assets, txHash: y.txHash } : null,
    verifyVia: {
      targetApyBps: command("targetApyBps", "incentive.targetAPY (bps)"),
      balance: command("balance", "incentive.escrowBalanceUSD", 18),
      tvlCap: command("tvlCap", "incentive.tvlCapUSD", 18),
      totalAssets: command("totalAssets", "incentive.eligibleTVL", 18),
      insiderShares: command("insiderShares", "genesisCohort insider shares", 24),
      yieldVestingPeriod: command("yieldVestingPeriod", "genesisCohort.vestingPeriodSeconds"),
    },
  };
}

/** One read after another, in the order the report has always made them, so a failure surfaces as before. */
export async function readApyInputs(ctx: ReportContext, now: number, marketPeers: MarketPeer[]): Promise<ApyInputs> {
  const n = ctx.network;
  const head = await indexedHead(ctx.db, "base");
  const blockNumber = head?.blockNumber ?? (await ctx.base.getBlockNumber());
  const venue = await readVenue(ctx, now);
  const lstRates = await readLstRates(ctx, now);
  const sharePrices = await readSharePrices(ctx, REALIZED_WINDOW_DAYS);
  const escrow = await readEscrow(ctx, blockNumber);
  return {
    now,
    blockNumber,
    commandRpcUrl: n.reporting.publicRpc.base,
    policy: n.yieldPolicy,
    lsts: n.lsts,
    venue,
    lstRates,
    sharePrices,
    escrow,
    marketPeers,
  };
}
