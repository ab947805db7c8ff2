/**
 * History series (GET /api/history, GraphQL `history`): kUSD supply and outstanding, USDC per
 * PSM, the PSM backing ratio, skUSD's share price and redemptions, at a chosen interval, from
 * indexed rows only (no chain read per point). Pure: the edge hands in per-block changes.
 *
 * Every point is the state at one block, and says which: a direct read at `blockNumber` gives
 * the same supply, balances and ratio. The share price is sampled every `sharePriceInterval`
 * blocks, so it carries the block of the sample it shows.
 */
import { z } from "zod";
import { bucketCount, bucketEnd, bucketStart, bucketStarts } from "../aggregates/buckets.js";
import { KusdError } from "../errors.js";
import type { PsmKey } from "../network/types.js";
import { type Pins, PinsSchema } from "../reports/pins.js";
import { PSM_KEYS } from "../reserves/por/snapshot.js";
import { outstandingKusd, psmSolvencyRatio } from "../reserves/solvency-formulas.js";
import { isoTime, round, toUnits } from "../reserves/units.js";
import { isoTimeSchema, weiSchema } from "../schema-primitives.js";

export const HISTORY_INTERVALS = ["DAY", "WEEK", "BLOCKS"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
/** More points than this is a request for the raw tables, which GraphQL pages already serve. */
export const MAX_HISTORY_POINTS = 2000;

/** A block the indexer saw, with its time. */
export type KnownBlock = { blockNumber: bigint; timestamp: number };
/** Net kUSD minted minus burned in one block (18 decimals). */
export type SupplyChange = KnownBlock & { delta: bigint };
/** Net USDC (6) or kUSD (18) into one PSM in one block. */
export type PsmBalanceChange = KnownBlock & { psmKey: PsmKey; token: "USDC" | "kUSD"; delta: bigint };
/** skUSD convertToAssets(1 share) at a sampled block: kUSD (18 decimals) per 1e24 share units. */
export type SharePriceSample = KnownBlock & { assetsPerShare: bigint };
/** PSM redemptions (kUSD → USDC) in one block. */
export type RedemptionTotals = KnownBlock & { count: number; kusd: bigint; usdc: bigint };

export type HistoryRows = {
  supply: SupplyChange[];
  psmBalances: PsmBalanceChange[];
  sharePrices: SharePriceSample[];
  redemptions: RedemptionTotals[];
};

/**
 * Where a point is taken; `period` for DAY and WEEK (unix seconds, end exclusive). Its
 * redemptions are those in blocks `windowFrom..blockNumber`. A carried point is a period with
 * no indexed block: it repeats the previous point's block (nothing indexed changed since), and
 * its window is null (no block of it saw a redemption).
 */
export type PointPlan = {
  blockNumber: bigint;
  timestamp: number | null;
  period: { start: number; end: number } | null;
  windowFrom: bigint | null;
  carried?: boolean;
};

/** A range or step that cannot be served (the HTTP edge answers 400 with the message). */
export class HistoryRangeError extends KusdError {
  readonly code = "history_range";
}

/** Every block the rows name, ascending, once. */
export function knownBlocks(rows: HistoryRows): KnownBlock[] {
  const seen = new Map<bigint, number>();
  for (const list of [rows.supply, rows.psmBalances, rows.sharePrices, rows.redemptions]) {
    for (const r of list) seen.set(r.blockNumber, r.timestamp);
  }
  return [...seen]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([blockNumber, timestamp]) => ({ blockNumber, timestamp }));
}

/**
 * The points of a series. DAY and WEEK (UTC; weeks from Monday) are dense: one point per period
 * from the first period holding an indexed block in the range to the period of `toTime` (the
 * time of `toBlock`: the indexed head's day by default). A period that holds indexed blocks
 * gets a point at its last one; the state cannot change between indexed blocks, so that is the
 * state at the period's end. A period without one is carried: the previous point's block and
 * state, marked `carried`, so a chart needs no filling of its own. BLOCKS: `fromBlock`,
 * `fromBlock + step`, … up to `toBlock`, each exactly at that block. A point's redemption window
 * is its period (DAY, WEEK) or the `step` blocks ending at it (BLOCKS).
 */
export function planPoints(
  interval: HistoryInterval,
  range: { fromBlock: bigint; toBlock: bigint; step: bigint | null; toTime?: number | null },
  known: KnownBlock[],
): PointPlan[] {
  if (range.toBlock < range.fromBlock) throw new HistoryRangeError("fromBlock is after toBlock");
  const time = new Map(known.map((k) => [k.blockNumber, k.timestamp]));
  if (interval === "BLOCKS") {
    const step = range.step;
    if (step === null || step < 1n)
      throw new HistoryRangeError("step must be a positive number of blocks with interval BLOCKS");
    const count = (range.toBlock - range.fromBlock) / step + 1n;
    if (count > BigInt(MAX_HISTORY_POINTS))
      throw new HistoryRangeError(
        `the range holds ${count} points at this step; at most ${MAX_HISTORY_POINTS} are served`,
      );
    const plan: PointPlan[] = [];
    for (let b = range.fromBlock; b <= range.toBlock; b += step) {
      const from = b - step + 1n;
      plan.push({ blockNumber: b, timestamp: time.get(b) ?? null, period: null, windowFrom: from < 0n ? 0n : from });
    }
    return plan;
  }
  // Ascending input: the first block seen in a period opens its window, the last one is its point.
  const byPeriod = new Map<number, { first: KnownBlock; last: KnownBlock }>();
  for (const k of known) {
    if (k.blockNumber < range.fromBlock || k.blockNumber > range.toBlock) continue;
    const start = bucketStart(interval, k.timestamp);
    const seen = byPeriod.get(start);
    byPeriod.set(start, { first: seen?.first ?? k, last: k });
  }
  const starts = [...byPeriod.keys()];
  if (starts.length === 0) return [];
  const first = starts[0]!;
  const lastKnown = starts.at(-1)!;
  const end = Math.max(lastKnown, range.toTime == null ? lastKnown : bucketStart(interval, range.toTime));
  const count = bucketCount(interval, first, end);
  if (count > MAX_HISTORY_POINTS)
    throw new HistoryRangeError(`the range holds ${count} periods; at most ${MAX_HISTORY_POINTS} are served`);
  const plan: PointPlan[] = [];
  for (const start of bucketStarts(interval, first, end)) {
    const period = { start, end: bucketEnd(interval, start) };
    const seen = byPeriod.get(start);
    const previous = plan.at(-1);
    // The first period always holds a block, so a carried period always has a point before it.
    plan.push(
      seen
        ? {
            blockNumber: seen.last.blockNumber,
            timestamp: seen.last.timestamp,
            period,
            windowFrom: seen.first.blockNumber,
            carried: false,
          }
        : {
            blockNumber: previous!.blockNumber,
            timestamp: previous!.timestamp,
            period,
            windowFrom: null,
            carried: true,
          },
    );
  }
  return plan;
}

const Amount = z.number();
export const HistoryPointSchema = z.strictObject({
  blockNumber: z
    .number()
    .int()
    .describe(
      "the block whose state this point is (for a carried point, the block the value was read at: the previous point's): a direct read there gives the same figures",
    ),
  timestamp: isoTimeSchema.nullable().describe("the block's time; null when the indexer holds no event at that block"),
  carried: z
    .boolean()
    .describe(
      "true when the period (DAY, WEEK) holds no indexed block: the figures are the previous point's, carried forward, at its blockNumber; false otherwise (always for BLOCKS)",
    ),
  period: z
    .strictObject({ start: isoTimeSchema, end: isoTimeSchema.describe("exclusive") })
    .nullable()
    .describe("the UTC day or week (DAY, WEEK); null for BLOCKS"),
  kusdSupply: Amount.describe("kUSD totalSupply"),
  kusdSupplyWei: weiSchema,
  kusdOutstanding: Amount.describe("totalSupply minus the kUSD the three PSMs hold (spec 2.3 rule 1)"),
  kusdOutstandingWei: weiSchema,
  psmUSDC: z
    .strictObject({ psmMint: Amount, psmRetiredMint: Amount, psmRedeemReserve: Amount, total: Amount })
    .describe("USDC balanceOf each PSM"),
  backingRatio: Amount.nullable().describe(
    "psmUSDC.total / kusdOutstanding (psmSolvencyRatio); null when nothing is outstanding",
  ),
  skusdSharePrice: z
    .strictObject({ kusdPerShare: Amount, blockNumber: z.number().int(), timestamp: isoTimeSchema })
    .nullable()
    .describe(
      "skUSD convertToAssets(1 share) at the latest sample at or before blockNumber; null before the first sample",
    ),
  redemptions: z
    .strictObject({
      count: z.number().int(),
      kusd: Amount,
      usdc: Amount,
      fromBlock: z.number().int().nullable(),
      toBlock: z.number().int().nullable(),
    })
    .describe(
      "PSM redemptions in blocks fromBlock..toBlock (inclusive): the point's period (DAY, WEEK) or the step blocks ending at it (BLOCKS); a carried point has none, and null bounds (no indexed block in its period)",
    ),
});
export type HistoryPoint = z.infer<typeof HistoryPointSchema>;

type Cursor<T extends KnownBlock> = { rows: T[]; i: number };
/** Applies every row at or before `block` (rows ascending) and returns them. */
function takeUpTo<T extends KnownBlock>(c: Cursor<T>, block: bigint): T[] {
  const start = c.i;
  while (c.i < c.rows.length && c.rows[c.i]!.blockNumber <= block) c.i++;
  return c.rows.slice(start, c.i);
}

const byBlock = <T extends KnownBlock>(rows: T[]) =>
  [...rows].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0));

/**
 * The series at the planned points. Supply and balances are running sums over every indexed
 * row up to the point: tokens are indexed from the protocol's first contract, before which
 * nothing of it moved.
 */
export function buildHistory(plan: PointPlan[], rows: HistoryRows): HistoryPoint[] {
  const supply = { rows: byBlock(rows.supply), i: 0 };
  const balances = { rows: byBlock(rows.psmBalances), i: 0 };
  const prices = { rows: byBlock(rows.sharePrices), i: 0 };
  const redemptions = { rows: byBlock(rows.redemptions), i: 0 };
  let totalSupply = 0n;
  const usdc: Record<PsmKey, bigint> = { psmMint: 0n, psmRetiredMint: 0n, psmRedeemReserve: 0n };
  const kusd: Record<PsmKey, bigint> = { psmMint: 0n, psmRetiredMint: 0n, psmRedeemReserve: 0n };
  let price: SharePriceSample | null = null;
  const points: HistoryPoint[] = [];
  for (const p of plan) {
    for (const s of takeUpTo(supply, p.blockNumber)) totalSupply += s.delta;
    for (const b of takeUpTo(balances, p.blockNumber)) (b.token === "USDC" ? usdc : kusd)[b.psmKey] += b.delta;
    price = takeUpTo(prices, p.blockNumber).at(-1) ?? price;
    // A carried point repeats the previous block, so nothing new is taken; its window is empty.
    const windowFrom = p.windowFrom;
    const inWindow = takeUpTo(redemptions, p.blockNumber).filter(
      (r) => windowFrom !== null && r.blockNumber >= windowFrom,
    );
    const outstanding = outstandingKusd(
      totalSupply,
      PSM_KEYS.map((k) => kusd[k]),
    );
    const usdcTotal = PSM_KEYS.reduce((a, k) => a + usdc[k], 0n);
    const outstandingUnits = toUnits(outstanding, 18);
    points.push({
      blockNumber: Number(p.blockNumber),
      timestamp: p.timestamp === null ? null : isoTime(p.timestamp),
      carried: p.carried ?? false,
      period: p.period && { start: isoTime(p.period.start), end: isoTime(p.period.end) },
      kusdSupply: toUnits(totalSupply, 18),
      kusdSupplyWei: totalSupply.toString(),
      kusdOutstanding: outstandingUnits,
      kusdOutstandingWei: outstanding.toString(),
      psmUSDC: {
        psmMint: toUnits(usdc.psmMint, 6),
        psmRetiredMint: toUnits(usdc.psmRetiredMint, 6),
        psmRedeemReserve: toUnits(usdc.psmRedeemReserve, 6),
        total: toUnits(usdcTotal, 6),
      },
      backingRatio: round(psmSolvencyRatio(toUnits(usdcTotal, 6), outstandingUnits), 8),
      skusdSharePrice: price && {
        kusdPerShare: toUnits(price.assetsPerShare, 18),
        blockNumber: Number(price.blockNumber),
        timestamp: isoTime(price.timestamp),
      },
      redemptions: {
        count: inWindow.reduce((a, r) => a + r.count, 0),
        kusd: toUnits(
          inWindow.reduce((a, r) => a + r.kusd, 0n),
          18,
        ),
        usdc: toUnits(
          inWindow.reduce((a, r) => a + r.usdc, 0n),
          6,
        ),
        fromBlock: windowFrom === null ? null : Number(windowFrom),
        toBlock: windowFrom === null ? null : Number(p.blockNumber),
      },
    });
  }
  return points;
}

export const HistorySeriesSchema = z.strictObject({
  interval: z.enum(HISTORY_INTERVALS),
  fromBlock: z.number().int(),
  toBlock: z.number().int().describe("at most the indexed head"),
  step: z.number().int().nullable().describe("blocks between points (BLOCKS); null otherwise"),
  indexedHead: z.strictObject({ blockNumber: z.number().int(), timestamp: isoTimeSchema }),
  points: z.array(HistoryPointSchema),
  source: z.string().describe("how the points are derived"),
  verifyVia: z.array(z.string()).describe("commands that reproduce the last point's figures from a public RPC"),
  pins: PinsSchema,
});
export type HistorySeries = z.infer<typeof HistorySeriesSchema>;

export const HISTORY_SOURCE =
  "Indexed rows only: kUSD mints and burns (kusd_supply_event), USDC and kUSD transfers into and out of each PSM (registry_transfer, indexed from the protocol's first contract), skUSD's sampled convertToAssets (share_price) and PSM redemptions (psm_swap). Running sums give the state at each point's block.";

/** The series at its planned points, with what it was asked and the commands that re-check its last point. */
export function buildHistorySeries(i: {
  interval: HistoryInterval;
  fromBlock: bigint;
  toBlock: bigint;
  step: bigint | null;
  indexedHead: { blockNumber: bigint; timestamp: number };
  plan: PointPlan[];
  rows: HistoryRows;
  /** The commands that reproduce a point's figures at its block. */
  verifyVia: (blockNumber: bigint) => string[];
  pins: Pins;
}): HistorySeries {
  const points = buildHistory(i.plan, i.rows);
  const last = points.at(-1);
  return {
    interval: i.interval,
    fromBlock: Number(i.fromBlock),
    toBlock: Number(i.toBlock),
    step: i.interval === "BLOCKS" ? Number(i.step) : null,
    indexedHead: { blockNumber: Number(i.indexedHead.blockNumber), timestamp: isoTime(i.indexedHead.timestamp) },
    points,
    source: HISTORY_SOURCE,
    verifyVia: last ? i.verifyVia(BigInt(last.blockNumber)) : [],
    pins: i.pins,
  };
}
