/** GET /api/psm-status: mint readiness of every PSM at the indexed head or `?block=N`. */

import { PsmStatusSchema } from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { type ReportContext, resolveReportBlock } from "../context.js";
import { blockParam, blockParamErrors } from "../http/query-params.js";
import { reportCacheControl } from "../http/rendered.js";
import { contract } from "../http/route-contract.js";
import { loadPsmStatus } from "./psm-status-service.js";

export const psmStatusContract = {
  summary: "Can each PSM mint kUSD for USDC now, and how much more will it take: every gate a pinned read",
  description:
    "ready = mintingEnabled ∧ ¬paused ∧ supportedStables(USDC) ∧ kUSD hasRole(MINTER_ROLE, psm) ∧ headroom > 0; headroom = stableCaps(USDC) − max(currentExposure(USDC), USDC.balanceOf(psm)) on the v3 and live PSMs (currentExposure alone on v1), as their bytecode binds the cap. The top-level ready and gates are the live mint PSM's.",
  tags: ["Reserves"],
  query: z.object({ block: blockParam }),
  response: PsmStatusSchema,
  errors: blockParamErrors,
};

export function psmRoutes(ctx: ReportContext) {
  const app = new Hono();
  app.get("/api/psm-status", ...contract(psmStatusContract), async (c) => {
    const requested = c.req.valid("query").block;
    const at = await resolveReportBlock(ctx, requested);
    const status = await loadPsmStatus(ctx, at);
    c.header("Cache-Control", reportCacheControl(at, requested, status.failedReads));
    return c.json(status);
  });
  return app;
}
