/** GET /api/health and GET /.well-known/security.txt. */

import type { ServiceEnv } from "@kusd/config";
import {
  buildHealth,
  buildSecurityTxt,
  type DependencyState,
  HealthSchema,
  type SecurityTxtConfig,
  STATEMENT_MAX_AGE_SECONDS,
  securityTxtExpired,
} from "@kusd/core";
import { Hono } from "hono";
import { CAUGHT_UP_LAG, liveClient, type ReportContext } from "../context.js";
import { errorBody } from "../http/errors.js";
import { contract } from "../http/route-contract.js";
import { isDatabaseUnavailable } from "../io/database-errors.js";
import { indexedHead } from "../io/indexed-reads.js";
import { readVenueNow } from "../io/venue-now.js";

export const healthContract = {
  summary:
    "Whether the service serves current figures: the indexer's lag behind the chain and the age of the latest signed statement",
  description:
    "Always 200 with `ok` and the reasons (Ponder's /ready is the probe that answers 503 until the backfill is done).",
  tags: ["Monitoring"],
  response: HealthSchema,
};

/** Health answers within a second whatever a dependency does: a read that takes longer counts as down. */
const PROBE_TIMEOUT_MS = 1_000;

/** One dependency read: its value, or why it is down (the database's own code when that is the cause). */
async function probe<T>(read: () => Promise<T>): Promise<{ value: T | null; state: DependencyState }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    return { value: await Promise.race([read(), timeout]), state: { ok: true, detail: "answered" } };
  } catch (e) {
    // viem's shortMessage, never the whole message: that one names the RPC URL, which may carry a key.
    const detail = isDatabaseUnavailable(e)
      ? "database_unavailable"
      : ((e as { shortMessage?: string }).shortMessage ?? (e as Error).message.split("\n")[0]!);
    return { value: null, state: { ok: false, detail } };
  } finally {
    clearTimeout(timer);
  }
}

export type HealthRoutesOptions = {
  statementSignedAt: () => Promise<number | null>;
  securityTxt: SecurityTxtConfig | null;
};

export function healthRoutes(ctx: ReportContext, o: HealthRoutesOptions) {
  const app = new Hono();
  app.get("/api/health", ...contract(healthContract), async (c) => {
    const [head, chain, signedAt, venue] = await Promise.all([
      probe(() => indexedHead(ctx.db, "base")),
      probe(() => liveClient(ctx).getBlockNumber({ cacheTime: 0 })),
      probe(() => o.statementSignedAt()),
      ctx.venue ? readVenueNow(ctx) : null,
    ]);
    c.header("Cache-Control", "no-store");
    return c.json(
      buildHealth({
        indexedBlock: head.value?.blockNumber ?? null,
        chainHead: chain.value ?? null,
        statementSignedAt: signedAt.value ?? null,
        now: Math.floor(Date.now() / 1000),
        maxLagBlocks: Number(CAUGHT_UP_LAG),
        maxStatementAgeSeconds: STATEMENT_MAX_AGE_SECONDS,
        dependencies: {
          database: head.state,
          operatorStore: signedAt.state,
          chain: chain.state,
          venue:
            venue === null
              ? { ok: null, detail: "no venue configured" }
              : venue.state
                ? { ok: true, detail: "answered clearinghouseState" }
                : { ok: false, detail: venue.reason ?? "not read" },
        },
      }),
    );
  });
  app.get("/.well-known/security.txt", (c) => {
    const s = o.securityTxt;
    if (!s)
      return c.json(
        errorBody(
          "not_configured",
          "no security contact is configured (KUSD_SECURITY_CONTACT and KUSD_SECURITY_EXPIRES)",
        ),
        404,
      );
    if (securityTxtExpired(s.expires))
      return c.json(
        errorBody("expired", `the configured security.txt expired at ${s.expires} (KUSD_SECURITY_EXPIRES)`),
        404,
      );
    return c.text(buildSecurityTxt(s), 200, {
      "Content-Type": "text/plain; charset=utf-8",
    });
  });
  return app;
}

/**
 * security.txt's fields from KUSD_SECURITY_CONTACT, KUSD_SECURITY_EXPIRES and KUSD_SECURITY_POLICY
 * (null without the first two), and its Canonical from the configured public URL, KUSD_SITE_URL.
 * Without one there is no Canonical line: the fallback site URL (localhost and the port) names no
 * host a reader reached, and a file fetched from any other would claim a copy it is not.
 */
export function securityTxtFromEnv(
  e: Pick<ServiceEnv, "KUSD_SECURITY_CONTACT" | "KUSD_SECURITY_EXPIRES" | "KUSD_SECURITY_POLICY" | "KUSD_SITE_URL">,
): HealthRoutesOptions["securityTxt"] {
  if (!e.KUSD_SECURITY_CONTACT?.length || !e.KUSD_SECURITY_EXPIRES) return null;
  return {
    contacts: e.KUSD_SECURITY_CONTACT,
    expires: e.KUSD_SECURITY_EXPIRES,
    ...(e.KUSD_SECURITY_POLICY && { policy: e.KUSD_SECURITY_POLICY }),
    ...(e.KUSD_SITE_URL && { canonical: `${e.KUSD_SITE_URL.replace(/\/+$/, "")}/.well-known/security.txt` }),
  };
}
