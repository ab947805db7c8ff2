/** GET /api/risk-status at the indexed head or `?block=N`. */

import { RiskStatusSchema } from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { type ReportContext, resolveReportBlock } from "../context.js";
import { blockParam, blockParamErrors } from "../http/query-params.js";
import { contract } from "../http/route-contract.js";
import { loadRiskStatus } from "./risk-service.js";

export const riskStatusContract = {
  summary:
    "Every safety switch, threshold and role of the deployed contracts with its live value and safe state; venue and statement; source-vs-deployed gaps",
  description:
    "triggers.onChain: the configuration getters of each deployed contract, catalogued from its ABI (a getter the contract sets, or a constant threshold), plus who holds DEFAULT_ADMIN_ROLE and kUSD MINTER_ROLE; each with the cast call that proves it. gaps: the getters the operator's audited source names that the deployed bytecode reverts on, found by calling each at the block.",
  tags: ["Monitoring"],
  query: z.object({ block: blockParam }),
  response: RiskStatusSchema,
  errors: blockParamErrors,
};

export function riskRoutes(ctx: ReportContext, statementSignedAt: () => Promise<number | null>) {
  const app = new Hono();
  app.get("/api/risk-status", ...contract(riskStatusContract), async (c) => {
    const at = await resolveReportBlock(ctx, c.req.valid("query").block);
    const status = await loadRiskStatus(ctx, at, statementSignedAt);
    // The statement's age and the venue are read now: never cached by a client for long; a failed read not at all.
    c.header("Cache-Control", status.failedReads.length > 0 ? "no-store" : "public, max-age=5");
    return c.json(status);
  });
  return app;
}
