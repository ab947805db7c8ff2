/** GET /api/apy: the yield report (spec 2.4), at the head (venue data is current only). */
import { Hono } from "hono";
import { onApiError } from "../http/errors.js";
import type { ReportContext } from "../reports/context.js";
import { loadApy } from "../yield/apy-service.js";

export function yieldRoutes(ctx: ReportContext) {
  const app = new Hono();
  app.onError(onApiError);
  app.get("/api/apy", async (c) => c.json(await loadApy(ctx)));
  return app;
}
