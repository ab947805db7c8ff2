/**
 * Every read behind GET /api/apy, gathered into the plain ApyInputs the report is built from
 * (packages/core/src/yield/apy/apy-report.ts): the venue's 60-day funding history, current rates
 * and the hedge account, and the escrow read at the indexed head, through the read plan a reader
 * re-reads with (packages/verify/src/read-plan/apy-reads.ts); the indexed LST rates, skUSD share
 * prices and yield distributions from the database. A venue that cannot be read is recorded with
 * the reason, and a chain read that fails is null: unknown, never guessed.
 */

import type { ApyInputs, EscrowInputs, MarketPeer, SharePriceRow } from "@kusd/core";
import { DAY, REALIZED_WINDOW_DAYS } from "@kusd/core";
import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import { PinnedReader, readApyVenue, readEscrowViews, VenueReader } from "../../packages/verify/src/index.js";
import * as schema from "../../ponder.schema.js";
import { type ReportContext, reportBlockHeader } from "../context.js";
import { indexedHead } from "../io/indexed-reads.js";

/** LST rate observations of the last 8 days: the 7-day average and one day before it. */
async function readLstRates(ctx: ReportContext, now: number): Promise<ApyInputs["lstRates"]> {
  const l = schema.lstRate;
  const rows = await ctx.db
    .select()
    .from(l)
    .where(gte(l.timestamp, BigInt(now - 8 * DAY)))
    .orderBy(asc(l.timestamp));
  return rows.map((r) => ({ symbol: r.symbol, blockNumber: r.blockNumber, timestamp: r.timestamp, rate: r.rate }));
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

/** The escrow and skUSD at `blockNumber` (each read null on failure), and the latest yield distribution indexed; null without an escrow. */
async function readEscrow(ctx: ReportContext, blockNumber: bigint): Promise<EscrowInputs | null> {
  const n = ctx.network;
  const escrow = n.reporting.incentiveEscrow;
  if (!escrow) return null;
  const views = await readEscrowViews(new PinnedReader(ctx.base, blockNumber, n.reporting.publicRpc.base), n, escrow);
  const ve = schema.vaultEvent;
  const [y] = await ctx.db
    .select()
    .from(ve)
    .where(and(eq(ve.vaultKey, "skUSD"), eq(ve.kind, "yield"), lte(ve.blockNumber, blockNumber)))
    .orderBy(desc(ve.blockNumber), desc(ve.logIndex))
    .limit(1);
  return {
    address: escrow,
    token: n.kUSD.address,
    vault: n.stakingVaults.skUSD.address,
    insider: n.reporting.operator,
    ...views,
    lastYield: y
      ? { timestamp: y.timestamp, assets: y.assets, txHash: y.txHash, blockNumber: y.blockNumber, logIndex: y.logIndex }
      : null,
  };
}

/** One read after another, in the order the report has always made them, so a failure surfaces as before. */
export async function readApyInputs(ctx: ReportContext, now: number, marketPeers: MarketPeer[]): Promise<ApyInputs> {
  const n = ctx.network;
  const head = await indexedHead(ctx.db, "base");
  const blockNumber = head?.blockNumber ?? (await ctx.base.getBlockNumber());
  const header = await reportBlockHeader(ctx, blockNumber);
  const venue = await readApyVenue(ctx.venue ? new VenueReader(ctx.venue.url) : null, n, now);
  const lstRates = await readLstRates(ctx, now);
  const sharePrices = await readSharePrices(ctx, REALIZED_WINDOW_DAYS);
  const escrow = await readEscrow(ctx, blockNumber);
  return {
    now,
    blockNumber,
    pinned: {
      chainId: n.chains.base.id,
      documentSha256: n.documentSha256,
      block: header ? { number: Number(blockNumber), hash: header.hash, timestamp: header.timestamp } : null,
    },
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
