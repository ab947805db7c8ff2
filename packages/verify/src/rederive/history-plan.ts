/**
 * A series' points planned as the service plans them (planPoints), from the blocks the indexer
 * holds rows at (history-blocks.ts) and as few block headers as the plan needs. A DAY or WEEK
 * point rests on the first and last such block of its period only, and block times never
 * decrease, so a run of blocks whose two ends fall in one period lies in it whole: the list is
 * split only where a period changes. BLOCKS reads the time of its points that are such blocks.
 */
import {
  bucketStart,
  type HistoryInterval,
  type KnownBlock,
  MAX_HISTORY_POINTS,
  type PointPlan,
  planPoints,
} from "@kusd/core";
import type { HeaderTimes } from "./header-times.js";

/** The first and last of `blocks` (ascending) in each period, with their times. */
export async function periodEnds(
  blocks: readonly bigint[],
  periodOf: (time: number) => number,
  times: HeaderTimes,
): Promise<KnownBlock[]> {
  if (blocks.length === 0) return [];
  const ends = new Map<number, { first: number; last: number }>();
  const note = (period: number, i: number, j: number) => {
    const e = ends.get(period);
    ends.set(period, { first: Math.min(e?.first ?? i, i), last: Math.max(e?.last ?? j, j) });
  };
  const periodAt = async (i: number) => periodOf(await times.at(blocks[i]!));
  const split = async (i: number, j: number, pi: number, pj: number): Promise<void> => {
    if (pi === pj) return note(pi, i, j);
    if (j - i <= 1) {
      note(pi, i, i);
      note(pj, j, j);
      return;
    }
    const m = (i + j) >> 1;
    const pm = await periodAt(m);
    await Promise.all([split(i, m, pi, pm), split(m, j, pm, pj)]);
  };
  const last = blocks.length - 1;
  const [first, final] = await Promise.all([periodAt(0), periodAt(last)]);
  await split(0, last, first, final);
  const indexes = [...new Set([...ends.values()].flatMap((e) => [e.first, e.last]))].sort((a, b) => a - b);
  return Promise.all(indexes.map(async (i) => ({ blockNumber: blocks[i]!, timestamp: await times.at(blocks[i]!) })));
}

export async function plannedPoints(
  times: HeaderTimes,
  q: { interval: HistoryInterval; fromBlock: bigint; toBlock: bigint; step: bigint | null; toTime: number },
  known: readonly bigint[],
): Promise<PointPlan[]> {
  const range = { fromBlock: q.fromBlock, toBlock: q.toBlock, step: q.step };
  if (q.interval === "BLOCKS") {
    const isKnown = new Set(known);
    const points: bigint[] = [];
    // A range of more points than are served is refused by planPoints; none is read for it.
    const count = q.step !== null && q.step > 0n ? (q.toBlock - q.fromBlock) / q.step + 1n : 0n;
    if (count <= BigInt(MAX_HISTORY_POINTS)) for (let b = q.fromBlock; b <= q.toBlock; b += q.step!) points.push(b);
    const timed = await Promise.all(
      points.filter((b) => isKnown.has(b)).map(async (b) => ({ blockNumber: b, timestamp: await times.at(b) })),
    );
    return planPoints("BLOCKS", range, timed);
  }
  const interval = q.interval;
  const inRange = known.filter((b) => b >= q.fromBlock && b <= q.toBlock);
  const ends = await periodEnds(inRange, (t) => bucketStart(interval, t), times);
  return planPoints(q.interval, { ...range, toTime: q.toTime }, ends);
}
