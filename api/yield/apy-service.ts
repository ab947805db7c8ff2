/**
 * GET /api/apy (spec 2.4): gathers the inputs (the venue's 60-day funding history, current
 * venue rates and the hedge account, indexed LST rates and skUSD share prices, the incentive
 * escrow read at the head) and applies the formulas of apy-formula.ts. A venue that cannot be
 * read leaves the venue-derived fields null, never guessed.
 */
import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import type { Address } from "viem";
import * as schema from "../../ponder.schema.js";
import { PinnedReader } from "../chain/pinned-reader.js";
import { indexedHead } from "../indexed/reads.js";
import type { ReportContext } from "../reports/context.js";
import { pct } from "../../core/reserves/solvency.js";
import { isoDate, isoTime, round, toUnits } from "../../core/reserves/units.js";
import { postInfo, VenueReadError } from "../venue/hyperliquid.js";
import { pageByTime } from "./venue-history.js";
import { annualiseMeanRate, annualRate, FUNDING_WINDOW_DAYS, headlineApy, incentiveRates, REALIZED_WINDOW_DAYS, realizedAnnualized, smaStakingYield } from "../../core/yield/apy-formula.js";
import { fullRateToTvl, genesisCohort, netApyAtLeverage, throughCycleBandPct } from "../../core/yield/cohort.js";

/** Runway below which the escrow is said to need funding. */
export const MIN_RUNWAY_DAYS = 30;

const DAY = 86_400;

/** The venue's hourly funding rates for `coin` in [fromMs, toMs], paged like every venue history read. */
async function fundingHistory(url: string, coin: string, fromMs: number, toMs: number): Promise<number[]> {
  const parse = (raw: unknown, ctx: { url: string; request: string }) => {
    const r = raw as { fundingRate?: unknown; time?: unknown };
    const rate = Number(r.fundingRate);
    if (typeof r.time !== "number" || !Number.isFinite(rate)) throw new VenueReadError("funding record lacks fundingRate or time", ctx);
    return { time: r.time, rate };
  };
  const { records } = await pageByTime(url, { type: "fundingHistory", coin }, fromMs, toMs, parse, (r) => String(r.time));
  return records.map((r) => r.rate);
}

type Predicted = [string, [string, { fundingRate: string; fundingIntervalHours?: number }][]][];

export type MarketPeer = { key: string; protocol: string; asset: string; chain: string; apyPct: number; tvlUsd: number | null; basis: string; source: string; sourceUrl: string; firstPartyUrl: string | null; measuredAt: string | null };

/** Peers for marketContext from KUSD_MARKET_PEERS (a JSON array of MarketPeer); none when unset or malformed. */
export function marketPeersFromEnv(env: NodeJS.ProcessEnv = process.env): MarketPeer[] {
  if (!env.KUSD_MARKET_PEERS) return [];
  try {
    const parsed = JSON.parse(env.KUSD_MARKET_PEERS) as unknown;
    return Array.isArray(parsed) ? (parsed as MarketPeer[]) : [];
  } catch {
    return [];
  }
}

export async function loadApy(ctx: ReportContext, now = Math.floor(Date.now() / 1000), marketPeers: MarketPeer[] = marketPeersFromEnv()) {
  const n = ctx.network;
  const venue = n.reporting.venue;
  const policy = n.yieldPolicy;
  const head = await indexedHead(ctx.db, "base");
  const block = head?.blockNumber ?? (await ctx.base.getBlockNumber());

  // ---------------------------------------------------------------- venue (nulls when unreadable)
  let venueError: string | null = null;
  let fundingRates: number[] = [];
  let predicted: Predicted = [];
  let account: { equityUsd: number; notionalUsd: number; positions?: { size: number }[] } | null = null;
  if (venue.url) {
    try {
      [fundingRates, predicted] = await Promise.all([
        fundingHistory(venue.url, venue.coin, (now - FUNDING_WINDOW_DAYS * DAY) * 1000, now * 1000),
        postInfo(venue.url, { type: "predictedFundings" }) as Promise<Predicted>,
      ]);
      account = ctx.venue ? await ctx.venue.clearinghouseState(venue.account) : null;
    } catch (e) {
      if (!(e instanceof VenueReadError)) throw e;
      venueError = e.message;
      fundingRates = [];
      predicted = [];
      account = null;
    }
  } else venueError = "venue not configured";
  const funding = annualiseMeanRate(fundingRates, 1);
  const byVenue: Record<string, { venue: string; rate: number; annual: number; interval: "1h" | "8h" }> = {};
  for (const [coin, venues] of predicted) {
    if (coin !== venue.coin) continue;
    for (const [id, v] of venues) {
      const hours = v.fundingIntervalHours ?? 8;
      byVenue[id] = { venue: id, rate: Number(v.fundingRate), annual: annualRate(Number(v.fundingRate), hours), interval: hours === 1 ? "1h" : "8h" };
    }
  }
  const best = Object.values(byVenue).sort((a, b) => b.annual - a.annual)[0] ?? null;

  // ---------------------------------------------------------------- staking yield (indexed LST rates)
  const lstRows = await ctx.db.select().from(schema.lstRate).where(gte(schema.lstRate.timestamp, BigInt(now - 8 * DAY))).orderBy(asc(schema.lstRate.timestamp));
  const lstYields: Record<string, number | null> = {};
  for (const symbol of Object.keys(n.lsts)) {
    const obs = lstRows.filter((r) => r.symbol === symbol && Number(r.timestamp) >= now - 7 * DAY - DAY / 2).map((r) => ({ t: Number(r.timestamp), rate: r.rate }));
    lstYields[symbol] = smaStakingYield(obs);
  }
  const known = Object.values(lstYields).filter((x): x is number => x !== null);
  const stakingYield = known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;

  // ---------------------------------------------------------------- headline (rules 1–3)
  const h = funding !== null && stakingYield !== null ? headlineApy({ stakingYield, fundingAnnual: funding, ...policy }) : null;

  // ---------------------------------------------------------------- realized (rules 4, 7)
  const sp = schema.sharePrice;
  const [latest] = await ctx.db.select().from(sp).where(eq(sp.vaultKey, "skUSD")).orderBy(desc(sp.blockNumber)).limit(1);
  let realized: { annualized: number | null; days: number; windowClamped: boolean } | null = null;
  let realizedFrom: typeof latest | undefined;
  if (latest) {
    const target = BigInt(Number(latest.timestamp) - REALIZED_WINDOW_DAYS * DAY);
    [realizedFrom] = await ctx.db.select().from(sp).where(and(eq(sp.vaultKey, "skUSD"), lte(sp.timestamp, target))).orderBy(desc(sp.timestamp)).limit(1);
    realizedFrom ??= (await ctx.db.select().from(sp).where(eq(sp.vaultKey, "skUSD")).orderBy(asc(sp.blockNumber)).limit(1))[0];
    if (realizedFrom) realized = realizedAnnualized({ t: Number(realizedFrom.timestamp), assetsPerShare: realizedFrom.assetsPerShare }, { t: Number(latest.timestamp), assetsPerShare: latest.assetsPerShare });
  }

  // ---------------------------------------------------------------- incentive escrow (read at the block)
  const r = new PinnedReader(ctx.base, block, n.reporting.publicRpc.base);
  const escrow = n.reporting.incentiveEscrow;
  const skUSD = n.stakingVaults.skUSD.address;
  let incentive: Record<string, unknown> | null = null;
  let genesis: Record<string, unknown> | null = null;
  if (escrow) {
    const read = (signature: string, to: Address = escrow) => r.call<bigint>({ to, signature }).catch(() => null);
    const operator = n.reporting.operator;
    const [targetBps, tvlCap, endsAt, totalFunded, totalDistributed, balance, tvl, vesting, insiderShares, supply] = await Promise.all([
      read("targetApyBps()(uint256)"), read("tvlCap()(uint256)"), read("endsAt()(uint256)"), read("totalFunded()(uint256)"),
      read("totalDistributed()(uint256)"), read("balance()(uint256)"), read("totalAssets()(uint256)", skUSD),
      read("yieldVestingPeriod()(uint256)", skUSD),
      r.call<bigint>({ to: skUSD, signature: "balanceOf(address)(uint256)", args: [operator] }).catch(() => null),
      read("totalSupply()(uint256)", skUSD),
    ]);
    const ve = schema.vaultEvent;
    const [lastYield] = await ctx.db.select().from(ve).where(and(eq(ve.vaultKey, "skUSD"), eq(ve.kind, "yield"))).orderBy(desc(ve.blockNumber)).limit(1);
    const ok = [targetBps, tvlCap, endsAt, balance, tvl].every((x) => x !== null);
    const daysLeft = ok ? Math.max(0, (Number(endsAt) - now) / DAY) : 0;
    const baseApy = h?.expectedAPY ?? 0;
    const rates = ok ? incentiveRates({ targetApy: Number(targetBps) / 10_000, baseApy, eligibleTvl: toUnits(tvl!, 18), tvlCap: toUnits(tvlCap!, 18), escrowBalance: toUnits(balance!, 18), daysLeft }) : null;
    const paid = realized?.annualized !== null && realized?.annualized !== undefined ? realized.annualized : null;
    const distributionLive = lastYield ? now - Number(lastYield.timestamp) <= 8 * DAY : false;
    const targetApy = targetBps === null ? null : Number(targetBps) / 10_000;
    const tvlUsd = tvl === null ? null : toUnits(tvl, 18);
    const insiderUsd = insiderShares !== null && tvl !== null && supply ? toUnits((tvl * insiderShares) / supply, 18) : null;
    const cohort = ok && targetApy !== null && tvlUsd !== null ? genesisCohort({ targetTotalApy: targetApy, baseApy, escrowBalanceUsd: toUnits(balance!, 18), tvlCapUsd: toUnits(tvlCap!, 18), stakedUsd: tvlUsd, insiderStakedUsd: insiderUsd ?? 0, daysRemaining: daysLeft }) : null;
    const lastDistribution = lastYield
      ? { date: isoDate(Number(lastYield.timestamp)), amountKUSD: toUnits(lastYield.assets ?? 0n, 18), txHash: lastYield.txHash, note: "the latest YieldDistributed on skUSD (indexed), which vests linearly" }
      : null;
    genesis = ok && cohort
      ? {
          active: daysLeft > 0 && toUnits(balance!, 18) > 0,
          distributionLive,
          label: "genesis cohort: skUSD stakers inside the incentive cap",
          targetTotalAPY: targetApy,
          targetTotalAPYPct: pct(targetApy),
          baseAPY: round(baseApy, 8),
          subsidyAPY: round(cohort.subsidyAPY, 8),
          deliveredTotalAPY: round(cohort.deliveredTotalAPY, 8),
          capBinding: cohort.capBinding,
          fundedUSD: totalFunded === null ? null : toUnits(totalFunded, 18),
          escrowAddress: escrow,
          escrowToken: n.kUSD.address,
          eligibleVault: skUSD,
          capEligibleTVL: toUnits(tvlCap!, 18),
          seatedUSD: round(cohort.seatedUSD, 2),
          roomUSD: round(cohort.roomUSD, 2),
          filled: cohort.filled,
          capEnforceable: false,
          perAccountAccrual: false,
          vestingPeriodSeconds: vesting === null ? null : Number(vesting),
          insiderAddress: operator,
          insiderStakedUSD: insiderUsd === null ? null : round(insiderUsd, 2),
          externalStakedUSD: round(cohort.externalStakedUSD, 2),
          termCostUSD: round(cohort.termCostUSD, 2),
          termDays: round(daysLeft, 2),
          endsAt: isoDate(Number(endsAt)),
          daysRemaining: Math.floor(daysLeft),
          deliveredAtBook: cohort.deliveredAtBook,
          observedAtBlock: Number(block),
          rpcUsed: n.reporting.publicRpc.base,
          basis: "delivered = base + min(target − base scaled by cap/book, escrow balance / book × 365 / days remaining); the cap is not enforced on deposits and accrual is pro rata, not per account",
          verify: [
            r.command({ to: skUSD, signature: "balanceOf(address)(uint256)", args: [operator] }, "genesisCohort insider shares", insiderShares ?? "?", 24),
            r.command({ to: skUSD, signature: "yieldVestingPeriod()(uint256)" }, "genesisCohort.vestingPeriodSeconds", vesting ?? "?"),
          ],
        }
      : null;
    incentive = {
      active: ok && daysLeft > 0 && toUnits(balance!, 18) > 0,
      distributionsFromEscrow: true,
      label: "skUSD incentive escrow",
      baseAPY: round(baseApy, 8),
      baseAPYPct: pct(baseApy),
      incentiveAPY: paid,
      incentiveAPYPct: pct(paid),
      incentiveNote: "incentiveAPY is what stakers actually received: the realized skUSD yield, which includes the escrow's distributions",
      distributionLive,
      lastVaultDistribution: lastDistribution,
      distributionNote: distributionLive ? "the escrow distributed into skUSD within the last 8 days" : "no distribution into skUSD in the last 8 days",
      totalAPY: paid,
      totalAPYPct: pct(paid),
      targetTotalAPY: targetApy,
      fullRateToTVL: cohort && targetApy !== null ? round(fullRateToTvl(toUnits(balance!, 18), Math.max(0, targetApy - baseApy), daysLeft), 2) : null,
      fundedThrough: rates?.runwayDays != null ? isoDate(now + Math.floor(rates.runwayDays * DAY)) : null,
      minRunwayDays: MIN_RUNWAY_DAYS,
      wouldPayAPY: rates ? round(rates.wouldPayAPY, 8) : null,
      wouldPayAPYPct: rates ? pct(rates.wouldPayAPY) : null,
      sustainableAPY: rates ? round(rates.sustainableAPY, 8) : null,
      capBinding: rates?.capBinding ?? null,
      taperBinding: rates?.taperBinding ?? null,
      targetAPY: targetBps === null ? null : Number(targetBps) / 10_000,
      fundedUSD: totalFunded === null ? null : toUnits(totalFunded, 18),
      distributedUSD: totalDistributed === null ? null : toUnits(totalDistributed, 18),
      escrowBalanceUSD: balance === null ? null : toUnits(balance, 18),
      escrowAddress: escrow,
      escrowToken: n.kUSD.address,
      eligibleVault: skUSD,
      eligibleTVL: tvl === null ? null : toUnits(tvl, 18),
      tvlCapUSD: tvlCap === null ? null : toUnits(tvlCap, 18),
      runwayDays: rates?.runwayDays === null || rates === null ? null : round(rates.runwayDays, 1),
      endsAt: endsAt === null ? null : isoDate(Number(endsAt)),
      observedAtBlock: Number(block),
      rpcUsed: n.reporting.publicRpc.base,
      basis: "wouldPayAPY = min(what the target needs above the base, what the escrow balance sustains over the days left); never above sustainableAPY",
      verify: [
        r.command({ to: escrow, signature: "targetApyBps()(uint256)" }, "incentive.targetAPY (bps)", targetBps ?? "?"),
        r.command({ to: escrow, signature: "balance()(uint256)" }, "incentive.escrowBalanceUSD", balance ?? "?", 18),
        r.command({ to: escrow, signature: "tvlCap()(uint256)" }, "incentive.tvlCapUSD", tvlCap ?? "?", 18),
        r.command({ to: skUSD, signature: "totalAssets()(uint256)" }, "incentive.eligibleTVL", tvl ?? "?", 18),
      ],
    };
  }

  // ---------------------------------------------------------------- measured venue (rule 5)
  const shortUsd = account?.notionalUsd ?? null;
  const equityUsd = account?.equityUsd ?? null;
  const implied = shortUsd !== null && equityUsd ? shortUsd / equityUsd : null;
  const timestamp = isoTime(now);
  return {
    apy: h ? round(h.expectedAPY * 100, 4) : null,
    expectedAPY: h ? round(h.expectedAPY, 8) : null,
    organicAPY: h ? round(h.expectedAPY, 8) : null,
    expectedAPYPct: h ? pct(h.expectedAPY) : null,
    organicAPYPct: h ? pct(h.expectedAPY) : null,
    basis: "deployed",
    modeled: true,
    isLive: venueError === null,
    source: venueError === null ? "live" : "unavailable",
    regime: funding === null ? null : funding < 0 ? "negative-funding" : funding < 0.05 ? "neutral-funding" : "positive-funding",
    fundingRate: funding === null ? null : round(funding, 8),
    stakingYield: stakingYield === null ? null : round(stakingYield, 8),
    stakingYieldPct: pct(stakingYield),
    hedgeVenue: venue.name,
    bestFundingVenue: best?.venue ?? null,
    fundingRates: byVenue,
    lstYields,
    timestamp,
    timestampUTC: timestamp,
    updatedAt: timestamp,
    protocolFee: policy.protocolFee,
    feePhase: policy.feePhase,
    methodology: `expectedAPY = L/(L+1) × (staking yield + trailing funding) × (1 − strategy cost) × (1 − insurance allocation) × (1 − protocol fee); L = min(12, 1.5 + funding × 10); funding = mean of the venue's hourly funding over ${FUNDING_WINDOW_DAYS} days × 8760; staking yield = 7-day simple moving average of the LSTs' daily exchange-rate growth × 365. The incentive escrow is not in the headline.`,
    sources: {
      stakingYield: stakingYield === null ? null : round(stakingYield, 8),
      fundingRate: funding === null ? null : round(funding, 8),
      stakingSource: Object.entries(n.lsts).map(([symbol, l]) => (l.kind === "rate-event" ? `${symbol}: indexed ExchangeRateUpdated of ${l.address}` : `${symbol}: indexed updates of the ${l.feed.description} feed ${l.address} (latestRoundData, read every ${l.intervalBlocks} blocks)`)).join("; ") || "no LST configured",
      fundingSource: `${venue.url ?? "no venue"} fundingHistory ${venue.coin}`,
      fundingWindowDays: FUNDING_WINDOW_DAYS,
      fundingEntries: fundingRates.length,
      leverage: h ? round(h.leverage, 6) : null,
      carryMultiplier: h ? round(h.carryMultiplier, 8) : null,
      grossAPY: h ? round(h.grossAPY, 8) : null,
      strategyCostFraction: policy.strategyCostFraction,
      strategyNetAPY: h ? round(h.strategyNetAPY, 8) : null,
      insuranceAllocation: policy.insuranceAllocation,
      protocolFee: policy.protocolFee,
      feePhase: policy.feePhase,
    },
    avgAnnualFunding: funding === null ? null : round(funding, 8),
    framing: {
      kind: "modeled-forward-rate",
      throughCycleBandPct: stakingYield === null ? null : throughCycleBandPct(fundingRates, { stakingYield, ...policy }),
      throughCycleBasis: "the headline recomputed at the 10th and 90th percentile of the window's hourly funding, annualised",
      measuredVenueBasis: "measuredVenue.netApyAtMeasuredRatio: the same formula at the hedge account's implied leverage instead of L",
      headline: "expectedAPY models the deployed book forward; realized is what the staking vault's share price did",
      deployedBasis: "the hedge as configured, at the model leverage L",
      withdrawnModeledTarget: "the flat 3x modeled target was withdrawn on 2026-07-28 and does not return",
      realizedToDate: realized?.annualized ?? null,
    },
    marketContext: {
      available: marketPeers.length > 0,
      peers: marketPeers,
      comparison: {
        basisAsymmetry: "peer yields are realized trailing figures measured by an aggregator; expectedAPY is modeled forward: compare realized with realized",
        scaleAsymmetry: "peers run books orders of magnitude larger; carry per dollar is not scale-free",
        kerneRealizedNote: "realized.annualized is this vault's own measured figure; /api/honesty-index measures peers the same way",
        howToCheck: "GET /api/honesty-index and compare realized APY over the same windows",
      },
      headline: marketPeers[0] ? { pct: marketPeers[0].apyPct, source: marketPeers[0].source, sourceNote: "the first configured peer, as its source publishes it" } : { pct: null, source: null, sourceNote: "no peer source configured for this deployment" },
      sources: marketPeers.map((p) => p.sourceUrl),
      asOf: timestamp,
      note: marketPeers.length ? "peer figures are configured by the operator (KUSD_MARKET_PEERS) with their sources; they are not measured here" : "unavailable: no peer yields are configured (KUSD_MARKET_PEERS; /api/honesty-index measures peers on chain instead)",
    },
    realized: {
      available: realized?.annualized !== null && realized !== null,
      annualized: realized?.annualized === null || !realized ? null : round(realized.annualized, 8),
      windowDays: REALIZED_WINDOW_DAYS,
      windowClamped: realized?.windowClamped ?? true,
      measuredDays: realized ? round(realized.days, 3) : null,
      asOf: latest ? isoTime(Number(latest.timestamp)) : null,
      fromBlock: realizedFrom ? Number(realizedFrom.blockNumber) : null,
      toBlock: latest ? Number(latest.blockNumber) : null,
      source: "indexed skUSD convertToAssets(1e24) observations (totalAssets / 1e18 per share of 1e24 units)",
      note: "annualized as growth × 365 / days between the two observations",
    },
    venueLeverage: {
      modelRule: "L = min(12, 1.5 + funding × 10)",
      modelWouldTransmit: h ? round(h.leverage, 6) : null,
      transmittedByEngine: null,
      priorVenueDefault: null,
      marginSizingAutomated: false,
      venueConfigured: venueError === null && implied !== null ? round(implied, 4) : null,
      reconciles: venueError === null && implied !== null && h ? Math.abs(implied - h.leverage) / h.leverage <= 0.25 : null,
      note: venueError ? `venue read failed: ${venueError}` : "venueConfigured is the implied leverage (short notional / equity) of the hedge account; reconciles when within 25 % of the model's L",
      verify: venue.url ? `curl -s -X POST ${venue.url} -H 'content-type: application/json' -d '{"type":"clearinghouseState","user":"${venue.account}"}'` : null,
    },
    measuredVenue: {
      available: account !== null,
      shortNotionalUsd: shortUsd,
      equityUsd,
      impliedLeverage: implied === null ? null : round(implied, 4),
      impliedCarryMultiplier: implied === null ? null : round(implied / (implied + 1), 6),
      shortNotionalEth: account ? round(Math.abs(account.positions?.[0]?.size ?? 0), 6) : null,
      netApyAtMeasuredRatio: implied !== null && funding !== null && stakingYield !== null ? round(netApyAtLeverage(implied, { stakingYield, fundingAnnual: funding, ...policy }), 8) : null,
      note: account ? "the hedge account as the venue reports it now" : `venue read failed: ${venueError ?? "not configured"}`,
      asOf: account ? timestamp : null,
      source: `${venue.url ?? "no venue"} clearinghouseState(${venue.account})`,
    },
    incentive,
    genesisCohort: genesis,
  };
}
