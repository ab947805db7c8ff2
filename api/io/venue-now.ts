/**
 * The venue at the head, shared by every report that shows it (reserves, risk-status, health): one
 * read per `venueMaxAgeSeconds`, so two reports of one moment never show two equities. A failed read
 * is never kept, so an outage and its end are seen at once (ctx.caches.venueNow).
 */
import { readAccountState, type VenueAccountState, VenueReadError } from "../../packages/verify/src/index.js";
import type { ReportContext } from "../context.js";
import type { VenueNow } from "../report-values.js";

export type { VenueNow };

/** The venue's account state now, or null with the reason (not configured, or the read failed). */
async function readVenueState(ctx: ReportContext): Promise<{ state: VenueAccountState | null; reason: string | null }> {
  if (!ctx.venue) return { state: null, reason: "venue not configured" };
  try {
    return { state: await readAccountState(ctx.venue.url, ctx.network.reporting.venue.account), reason: null };
  } catch (e) {
    if (e instanceof VenueReadError) return { state: null, reason: `venue read failed: ${e.message}` };
    throw e;
  }
}

export function readVenueNow(ctx: ReportContext): Promise<VenueNow> {
  return ctx.caches.venueNow("venue", async () => ({ ...(await readVenueState(ctx)), readAtMs: Date.now() }));
}
