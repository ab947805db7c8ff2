/** GET /api/health and GET /.well-known/security.txt. */
import { Hono } from "hono";
import { HealthSchema, buildHealth } from "../../core/monitoring/health.js";
import { buildSecurityTxt, securityTxtExpired, type SecurityTxtConfig } from "../../core/security-txt.js";
import { errorBody, onApiError } from "../http/errors.js";
import { contract } from "../http/route-contract.js";
import { indexedHead } from "../io/indexed-reads.js";
import { CAUGHT_UP_LAG, type ReportContext } from "../context.js";
import { readServiceEnv } from "../../core/network/env.js";

import { STATEMENT_MAX_AGE_SECONDS } from "../../core/attestation/verify.js";

export const healthContract = {
  summary: "Whether the service serves current figures: the indexer's lag behind the chain and the age of the latest signed statement",
  description: "Always 200 with `ok` and the reasons (Ponder's /ready is the probe that answers 503 until the backfill is done).",
  tags: ["Monitoring"],
  response: HealthSchema,
};

export type HealthRoutesOptions = { statementSignedAt: () => Promise<number | null>; securityTxt: Omit<SecurityTxtConfig, "canonical"> | null; siteUrl: string };

export function healthRoutes(ctx: ReportContext, o: HealthRoutesOptions) {
  const app = new Hono();
  app.onError(onApiError);
  app.get("/api/health", ...contract(healthContract), async (c) => {
    const [head, chain, signedAt] = await Promise.all([
      indexedHead(ctx.db, "base").catch(() => null),
      ctx.base.getBlockNumber({ cacheTime: 0 }).catch(() => null),
      o.statementSignedAt().catch(() => null),
    ]);
    c.header("Cache-Control", "no-store");
    return c.json(buildHealth({ indexedBlock: head?.blockNumber ?? null, chainHead: chain, statementSignedAt: signedAt, now: Math.floor(Date.now() / 1000), maxLagBlocks: Number(CAUGHT_UP_LAG), maxStatementAgeSeconds: STATEMENT_MAX_AGE_SECONDS }));
  });
  app.get("/.well-known/security.txt", (c) => {
    const s = o.securityTxt;
    if (!s) return c.json(errorBody("not_configured", "no security contact is configured (KUSD_SECURITY_CONTACT and KUSD_SECURITY_EXPIRES)"), 404);
    if (securityTxtExpired(s.expires)) return c.json(errorBody("expired", `the configured security.txt expired at ${s.expires} (KUSD_SECURITY_EXPIRES)`), 404);
    return c.text(buildSecurityTxt({ ...s, canonical: `${o.siteUrl}/.well-known/security.txt` }), 200, { "Content-Type": "text/plain; charset=utf-8" });
  });
  return app;
}

/** security.txt's fields from KUSD_SECURITY_CONTACT, KUSD_SECURITY_EXPIRES and KUSD_SECURITY_POLICY; null without the first two. */
export function securityTxtFromEnv(env: NodeJS.ProcessEnv): HealthRoutesOptions["securityTxt"] {
  const e = readServiceEnv(env);
  if (!e.KUSD_SECURITY_CONTACT?.length || !e.KUSD_SECURITY_EXPIRES) return null;
  return { contacts: e.KUSD_SECURITY_CONTACT, expires: e.KUSD_SECURITY_EXPIRES, ...(e.KUSD_SECURITY_POLICY && { policy: e.KUSD_SECURITY_POLICY }) };
}
