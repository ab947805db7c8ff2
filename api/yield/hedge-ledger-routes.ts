/**
 * `GET /api/hedge-ledger[?until=<ISO 8601>]`: the hedge account's realized ledger (spec 2.5),
 * read from the venue on each request. It needs no database. A venue that cannot be read is
 * not the caller's fault and not a server bug: the answer is 200 with isLive false, null
 * figures and the reason in `venueRead`.
 */

import {
  buildHedgeLedger,
  HedgeLedgerSchema,
  LEDGER_SINCE_ISO,
  LEDGER_SINCE_MS,
  type LedgerSource,
  unavailableHedgeLedger,
} from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { ledgerPins, readLedgerRecords, VenueReadError, VenueReader } from "../../packages/verify/src/index.js";
import type { ReportContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { contract } from "../http/route-contract.js";

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const UNTIL_MESSAGE = "until must be an ISO 8601 date or UTC instant, e.g. 2026-09-01T00:00:00Z";

export const hedgeLedgerContract = {
  summary: "The hedge account's realized funding and fills ledger, read from the venue (spec 2.5)",
  description: "A venue that cannot be read answers 200 with isLive false, null figures and the reason in venueRead.",
  tags: ["Yield"],
  query: z.object({
    until: z
      .string()
      .regex(new RegExp(`(${ISO_INSTANT.source})|^$`), UNTIL_MESSAGE)
      .optional()
      .describe("end of the window (default now)"),
  }),
  response: HedgeLedgerSchema,
};

/** The end of the window: `until` when given (capped at now, the venue has nothing later), else now. */
export function parseUntil(raw: string | undefined, nowMs: number): number {
  if (raw === undefined || raw === "") return nowMs;
  const ms = ISO_INSTANT.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(ms)) throw badRequest("invalid_until", UNTIL_MESSAGE, { until: raw });
  if (ms < LEDGER_SINCE_MS)
    throw badRequest("until_before_since", `until is before the ledger starts (${LEDGER_SINCE_ISO})`, {
      until: raw,
      sinceISO: LEDGER_SINCE_ISO,
    });
  return Math.min(ms, nowMs);
}

export function hedgeLedgerRoutes(ctx: ReportContext, now: () => number = Date.now) {
  const app = new Hono();

  app.get("/api/hedge-ledger", ...contract(hedgeLedgerContract), async (c) => {
    const nowMs = now();
    const untilMs = parseUntil(c.req.valid("query").until, nowMs);
    const v = ctx.network.reporting.venue;
    const src: LedgerSource = {
      infoUrl: v.url,
      venue: v.name,
      account: v.account,
      coin: v.coin,
      sinceMs: LEDGER_SINCE_MS,
      untilMs,
    };
    if (v.url === null) {
      const reason = "no venue URL is configured";
      return c.json(unavailableHedgeLedger(src, { ok: false, reason }, ledgerPins(ctx.network, null, reason), nowMs));
    }
    const venue = new VenueReader(v.url);
    try {
      const records = await readLedgerRecords(venue, v.account, src.sinceMs, untilMs);
      return c.json(buildHedgeLedger(src, records, ledgerPins(ctx.network, venue, null), nowMs));
    } catch (e) {
      if (!(e instanceof VenueReadError)) throw e;
      const { status, request, cause } = e.details;
      const reason = cause ? `${e.message}: ${cause}` : e.message;
      return c.json(
        unavailableHedgeLedger(
          src,
          { ok: false, reason, ...(status === undefined ? {} : { status }), request },
          ledgerPins(ctx.network, venue, reason),
          nowMs,
        ),
      );
    }
  });

  return app;
}
