/**
 * The unpaid reserves reports: /api/por (spec 2.3), /api/stats and the redemption planner, each
 * at the indexed head or pinned to `?block=N`.
 */

import { PorReportSchema, RedemptionPlanSchema, StatsSchema } from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { ChainReadError } from "../../packages/verify/src/index.js";
import { type ReportContext, resolveReportBlock } from "../context.js";
import { ApiError } from "../http/errors.js";
import { blockParam, blockParamErrors, kusdAmount } from "../http/query-params.js";
import { reportCacheControl, sendRendered } from "../http/rendered.js";
import { contract } from "../http/route-contract.js";
import { loadPsmStatus } from "../psm/psm-status-service.js";
import { riskChainPart } from "../risk/risk-service.js";
import { renderPorReport } from "./por-service.js";
import { loadRedemptionPlan } from "./redemption-plan-service.js";
import { renderStats } from "./stats-service.js";

const TAGS = ["Reserves"];
const blockErrors = { ...blockParamErrors, 503: `${blockParamErrors[503]}, or a chain read failed` };

export const porContract = {
  summary: "Reserves, liabilities, solvency and redemption depth (spec 2.3)",
  description:
    "Every chain figure is a read pinned to blockNumber with the cast command that reproduces it beside it (verifyVia); a read that fails is null, never guessed.",
  tags: TAGS,
  query: z.object({ block: blockParam }),
  response: PorReportSchema,
  errors: blockErrors,
};

export const statsContract = {
  summary: "PSM USDC reserves and kUSD supply and outstanding, without any ratio",
  description:
    "The raw figures behind the backing ratio (psmUSDC / kusdOutstanding), each a read pinned to blockNumber; no ratio is computed here.",
  tags: TAGS,
  query: z.object({ block: blockParam }),
  response: StatsSchema,
  errors: blockErrors,
};

export const redemptionPlanContract = {
  summary: "The transactions that redeem an amount of kUSD at a block, each fee confirmed by the PSM's getFee",
  description:
    "Which PSM each part of the amount goes to, at which fee tier, the USDC it pays out, and a `cast send` per transaction; a plan is for the block's reserves and fees, not a promise for later blocks.",
  tags: TAGS,
  query: z.object({
    amount: kusdAmount("amount is the kUSD to redeem, a positive decimal with at most 18 decimals", {
      positive: true,
    }).describe("kUSD to redeem"),
    block: blockParam,
  }),
  response: RedemptionPlanSchema,
  errors: {
    ...blockErrors,
    503: "PSM reserves, fee schedules or getFee could not be read, or getFee disagrees with the fee rule",
  },
};

export function reservesRoutes(ctx: ReportContext) {
  const app = new Hono();

  app.get("/api/por", ...contract(porContract), async (c) => {
    const requested = c.req.valid("query").block;
    const at = await resolveReportBlock(ctx, requested);
    // The reserves page asks for the gates and the switches of the same block next: their reads
    // join the snapshot's aggregate3 (one billed call for the block), and wait in their caches.
    const { report, rendered } = await renderPorReport(ctx, at, {
      alongside: (header) => {
        loadPsmStatus(ctx, at, header).catch(() => {});
        riskChainPart(ctx, at, header).catch(() => {});
      },
    });
    return sendRendered(c, rendered, reportCacheControl(at, requested, report.attestation.failedReads));
  });

  app.get("/api/stats", ...contract(statsContract), async (c) => {
    const requested = c.req.valid("query").block;
    const at = await resolveReportBlock(ctx, requested);
    try {
      return sendRendered(c, (await renderStats(ctx, at)).rendered, reportCacheControl(at, requested));
    } catch (e) {
      if (e instanceof ChainReadError)
        throw new ApiError("chain_read_failed", "a chain read did not land; nothing is published rather than a guess", {
          read: e.details.signature,
        });
      throw e;
    }
  });

  app.get("/api/por/redemption-plan", ...contract(redemptionPlanContract), async (c) => {
    const q = c.req.valid("query");
    const at = await resolveReportBlock(ctx, q.block);
    return c.json(await loadRedemptionPlan(ctx, at, q.amount));
  });

  return app;
}
