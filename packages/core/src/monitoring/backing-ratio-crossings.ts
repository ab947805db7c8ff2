/**
 * Backing-ratio alerts (`/api/events/backing-ratio`): the blocks where psmUSDC / outstanding kUSD
 * fell below a threshold, and where it came back, from the same indexed rows as the history
 * series. An alert is an event at a block like any other feed's, so a reorg that undoes the
 * movement removes it and the monitor retracts it.
 */
import { z } from "zod";
import { buildHistory, type HistoryRows, knownBlocks } from "../history/series.js";
import { indexedHeadSchema } from "../registry/violation-view.js";
import { isoTimeSchema } from "../schema-primitives.js";

export const BackingRatioEventSchema = z.strictObject({
  id: z.string().describe("<block>:<below|restored>:<threshold>"),
  kind: z.literal("backing_ratio"),
  direction: z
    .enum(["below", "restored"])
    .describe("below: the ratio fell under the threshold at this block; restored: it reached it again"),
  threshold: z.number(),
  ratio: z.number().nullable().describe("psmUSDC / kusdOutstanding after the block; null when nothing is outstanding"),
  previousRatio: z.number().nullable(),
  psmUSDC: z.number(),
  kusdOutstanding: z.number(),
  blockNumber: z.number().int(),
  timestamp: isoTimeSchema,
});
export type BackingRatioEvent = z.infer<typeof BackingRatioEventSchema>;
export const BackingRatioFeedSchema = z.strictObject({
  indexedHead: indexedHeadSchema,
  events: z.array(BackingRatioEventSchema),
});

/** Nothing outstanding backs nothing: an unknown ratio is not "below". */
const isBelow = (ratio: number | null, threshold: number) => ratio !== null && ratio < threshold;

export function backingRatioCrossings(
  rows: HistoryRows,
  threshold: number,
  range: { fromBlock: bigint; toBlock: bigint },
): BackingRatioEvent[] {
  const blocks = knownBlocks(rows).filter((b) => b.blockNumber <= range.toBlock);
  const points = buildHistory(
    blocks.map((b) => ({
      blockNumber: b.blockNumber,
      timestamp: b.timestamp,
      period: null,
      windowFrom: b.blockNumber,
    })),
    rows,
  );
  const events: BackingRatioEvent[] = [];
  let previous: number | null = null;
  for (const p of points) {
    const was = isBelow(previous, threshold);
    const now = isBelow(p.backingRatio, threshold);
    if (was !== now && BigInt(p.blockNumber) >= range.fromBlock) {
      const direction = now ? "below" : "restored";
      events.push({
        id: `${p.blockNumber}:${direction}:${threshold}`,
        kind: "backing_ratio",
        direction,
        threshold,
        ratio: p.backingRatio,
        previousRatio: previous,
        psmUSDC: p.psmUSDC.total,
        kusdOutstanding: p.kusdOutstanding,
        blockNumber: p.blockNumber,
        timestamp: p.timestamp!,
      });
    }
    previous = p.backingRatio;
  }
  return events;
}
