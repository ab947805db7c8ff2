/** GET /api/history: the series of supply, outstanding, PSM USDC, backing ratio, share price and redemptions. */

import { HISTORY_INTERVALS, HistorySeriesSchema, MAX_HISTORY_POINTS } from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import type { ReportContext } from "../context.js";
import { blockBound } from "../http/query-params.js";
import { reportCacheControl } from "../http/rendered.js";
import { contract } from "../http/route-contract.js";
import { loadHistory } from "./history-service.js";

export const historyContract = {
  summary: "History series at a block interval or per UTC day or week, from indexed state",
  description: `Each point is the state at its blockNumber (a direct read there gives the same figures): kUSD supply and outstanding, USDC per PSM, psmUSDC/outstanding, skUSD's share price (with its sample's block) and redemptions since the previous point. DAY and WEEK are dense: one point per UTC period from the first indexed event in the range to toBlock's period (the indexed head's by default); a period without an indexed block repeats the previous point's block and figures with carried: true. At most ${MAX_HISTORY_POINTS} points.`,
  tags: ["Reserves"],
  query: z.object({
    interval: z
      .enum(HISTORY_INTERVALS, { error: `interval must be one of ${HISTORY_INTERVALS.join(", ")}` })
      .optional()
      .describe("DAY (default), WEEK, or BLOCKS with step"),
    fromBlock: blockBound("fromBlock").describe("first block (default: kUSD's deployment block)"),
    toBlock: blockBound("toBlock").describe("last block (default: the indexed head)"),
    step: z
      .string()
      .regex(/^[1-9]\d{0,11}$/, "step must be a positive integer number of blocks")
      .transform(BigInt)
      .optional()
      .describe("blocks between points, with interval=BLOCKS"),
  }),
  response: HistorySeriesSchema,
  errors: { 422: "toBlock is past the indexed head", 503: "the indexer has not reached the protocol yet" },
};

export function historyRoutes(ctx: ReportContext) {
  const app = new Hono();
  app.get("/api/history", ...contract(historyContract), async (c) => {
    const q = c.req.valid("query");
    const series = await loadHistory(ctx, {
      interval: q.interval ?? "DAY",
      fromBlock: q.fromBlock,
      toBlock: q.toBlock,
      step: q.step,
    });
    // Pinned to a final toBlock, a series never changes; otherwise it moves with the head.
    const at = { blockNumber: BigInt(series.toBlock), head: { blockNumber: BigInt(series.indexedHead.blockNumber) } };
    c.header("Cache-Control", reportCacheControl(at, q.toBlock?.toString()));
    return c.json(series);
  });
  return app;
}
