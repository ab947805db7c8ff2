/**
 * Alert feeds for monitors, each a block range of indexed events with stable ids:
 * `/api/events/minter-grants`, `/api/events/psm-pauses`, `/api/events/redemptions?minKusd=`.
 * A range is answered in full (these events are rare), so a monitor can re-read its reorg
 * window and notice a row that disappeared.
 */

import {
  BackingRatioFeedSchema,
  backingRatioCrossings,
  IndexedHeadFeedSchema,
  isoTime,
  MINTER_ROLE,
  MinterGrantFeedSchema,
  MinterRoleChangeFeedSchema,
  minterGrantView,
  minterRoleChangeView,
  PsmPauseFeedSchema,
  psmPauseView,
  RedemptionFeedSchema,
  redemptionView,
} from "@kusd/core";
import { Hono } from "hono";
import { parseUnits } from "viem";
import { z } from "zod";
import type { ReportContext } from "../context.js";
import { historyRowsAt } from "../history/history-service.js";
import { ApiError, badRequest } from "../http/errors.js";
import { blockBound, integerRange, kusdAmount } from "../http/query-params.js";
import { contract } from "../http/route-contract.js";
import { headWatchOf } from "../io/head-watch.js";
import { indexedHead, minterGrantsIn, minterRoleChangesIn, psmPausesIn, redemptionsIn } from "../io/indexed-reads.js";

export const MAX_RANGE_BLOCKS = 100_000n;

const TAGS = ["Monitoring"];
const RANGE_DESCRIPTION = `From indexed events, in chain order. The range defaults to the newest ${MAX_RANGE_BLOCKS} blocks up to the indexed head and spans at most ${MAX_RANGE_BLOCKS} blocks.`;
const rangeQuery = { fromBlock: blockBound("fromBlock"), toBlock: blockBound("toBlock") };
const errors = { 503: "the indexer has not started yet" };

export const minterGrantsContract = {
  summary: "MINTER_ROLE grants on kUSD in a block range",
  description: RANGE_DESCRIPTION,
  tags: TAGS,
  query: z.object(rangeQuery),
  response: MinterGrantFeedSchema,
  errors,
};
export const minterRoleChangesContract = {
  summary: "MINTER_ROLE grants and revocations in a block range",
  description: RANGE_DESCRIPTION,
  tags: TAGS,
  query: z.object(rangeQuery),
  response: MinterRoleChangeFeedSchema,
  errors,
};
export const backingRatioContract = {
  summary: "Blocks where psmUSDC / outstanding kUSD fell below a threshold, and where it came back, in a block range",
  description:
    "From indexed state (the history series' rows): an event is the block whose transfers or mints moved the ratio across the threshold.",
  tags: TAGS,
  query: z.object({
    ...rangeQuery,
    below: z
      .string()
      .regex(/^\d{1,3}(\.\d{1,8})?$/, "below is a ratio such as 1 or 0.995")
      .transform(Number)
      .describe("the threshold, e.g. 1 for 100 %"),
  }),
  response: BackingRatioFeedSchema,
  errors,
};
export const psmPausesContract = {
  summary: "PSM pauses in a block range",
  description: RANGE_DESCRIPTION,
  tags: TAGS,
  query: z.object(rangeQuery),
  response: PsmPauseFeedSchema,
  errors,
};
export const redemptionsContract = {
  summary: "PSM redemptions of at least minKusd in a block range",
  description: RANGE_DESCRIPTION,
  tags: TAGS,
  query: z.object({
    ...rangeQuery,
    minKusd: kusdAmount("minKusd is a non-negative kUSD amount")
      .optional()
      .describe("smallest redemption reported, in kUSD (default 0)"),
  }),
  response: RedemptionFeedSchema,
  errors,
};

export const MAX_HEAD_WAIT_MS = 30_000;
export const headContract = {
  summary: "The indexed head, once it is past a block the caller names (a long poll)",
  description: `Answers at once without \`after\`, or when the indexed head is not \`after\`; otherwise when the indexer moves past it (within about 50 ms of the block being indexed) or after \`waitMs\` with the head unchanged. A monitor waits here between its polls instead of sleeping, so an alert leaves within one block (kusd-monitor does).`,
  tags: TAGS,
  query: z.object({
    after: blockBound("after").optional().describe("the indexed head the caller has seen"),
    waitMs: z
      .string()
      .regex(integerRange(0, MAX_HEAD_WAIT_MS), `waitMs must be an integer from 0 to ${MAX_HEAD_WAIT_MS}`)
      .transform(Number)
      .optional()
      .describe(`how long to wait for a new head, in ms (default and at most ${MAX_HEAD_WAIT_MS})`),
  }),
  response: IndexedHeadFeedSchema,
  errors,
};

export function eventsRoutes(ctx: ReportContext) {
  const app = new Hono();

  /** The range asked for, defaulting to the newest MAX_RANGE_BLOCKS blocks up to the indexed head. */
  const range = async (q: { fromBlock?: bigint; toBlock?: bigint }) => {
    const head = await indexedHead(ctx.db, "base");
    if (!head) throw new ApiError("not_indexed_yet", "the indexer has not started on base yet");
    const toBlock = q.toBlock ?? head.blockNumber;
    const fromBlock = q.fromBlock ?? (toBlock > MAX_RANGE_BLOCKS ? toBlock - MAX_RANGE_BLOCKS : 0n);
    if (toBlock < fromBlock) throw badRequest("invalid_range", "toBlock is before fromBlock");
    if (toBlock - fromBlock > MAX_RANGE_BLOCKS)
      throw badRequest("range_too_large", `at most ${MAX_RANGE_BLOCKS} blocks per request`);
    return {
      fromBlock,
      toBlock,
      indexedHead: { blockNumber: Number(head.blockNumber), timestamp: isoTime(head.timestamp) },
    };
  };

  app.get("/api/events/head", ...contract(headContract), async (c) => {
    const q = c.req.valid("query");
    let head = await indexedHead(ctx.db, "base");
    if (head && q.after !== undefined && head.blockNumber === q.after) {
      const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(q.waitMs ?? MAX_HEAD_WAIT_MS)]);
      head = (await headWatchOf(ctx.db).beyond(q.after, signal)) ?? head;
    }
    if (!head) throw new ApiError("not_indexed_yet", "the indexer has not started on base yet");
    return c.json({
      indexedHead: { blockNumber: Number(head.blockNumber), timestamp: isoTime(head.timestamp) },
    } satisfies z.infer<typeof IndexedHeadFeedSchema>);
  });

  app.get("/api/events/minter-grants", ...contract(minterGrantsContract), async (c) => {
    const r = await range(c.req.valid("query"));
    const rows = await minterGrantsIn(ctx.db, r.fromBlock, r.toBlock, MINTER_ROLE);
    return c.json({ indexedHead: r.indexedHead, events: rows.map(minterGrantView) } satisfies z.infer<
      typeof MinterGrantFeedSchema
    >);
  });

  app.get("/api/events/minter-role-changes", ...contract(minterRoleChangesContract), async (c) => {
    const r = await range(c.req.valid("query"));
    const rows = await minterRoleChangesIn(ctx.db, r.fromBlock, r.toBlock, MINTER_ROLE);
    return c.json({ indexedHead: r.indexedHead, events: rows.map(minterRoleChangeView) } satisfies z.infer<
      typeof MinterRoleChangeFeedSchema
    >);
  });

  app.get("/api/events/backing-ratio", ...contract(backingRatioContract), async (c) => {
    const q = c.req.valid("query");
    const r = await range(q);
    const rows = await historyRowsAt(ctx, r.toBlock);
    return c.json({ indexedHead: r.indexedHead, events: backingRatioCrossings(rows, q.below, r) } satisfies z.infer<
      typeof BackingRatioFeedSchema
    >);
  });

  app.get("/api/events/psm-pauses", ...contract(psmPausesContract), async (c) => {
    const r = await range(c.req.valid("query"));
    const rows = await psmPausesIn(ctx.db, r.fromBlock, r.toBlock);
    return c.json({ indexedHead: r.indexedHead, events: rows.map(psmPauseView) } satisfies z.infer<
      typeof PsmPauseFeedSchema
    >);
  });

  app.get("/api/events/redemptions", ...contract(redemptionsContract), async (c) => {
    const q = c.req.valid("query");
    const r = await range(q);
    const rows = await redemptionsIn(ctx.db, r.fromBlock, r.toBlock, parseUnits(q.minKusd ?? "0", 18));
    return c.json({ indexedHead: r.indexedHead, events: rows.map(redemptionView) } satisfies z.infer<
      typeof RedemptionFeedSchema
    >);
  });

  return app;
}
