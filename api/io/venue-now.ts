/**
 * The venue at the head, shared by every report that shows it (reserves, risk-status, health): one
 * read per `venueMaxAgeSeconds`, so two reports of one moment never show two equities. A failed read
 * is never kept, so an outage and its end are seen at once. Its own cache, per report context.
 */
import type { ReportContext } from "../context.js";
import { type VenueAccountState, VenueReadError } from "./hyperliquid.js";
import { memo, perObject } from "./memo.js";

/** The venue read now: its answer (null with the reason when it failed) and when we read it. */
export type VenueNow = { state: VenueAccountState | null; reason: string | null; readAtMs: number };

/** The venue's account state now, or null with the reason (not configured, or the read failed). */
async function readVenueState(ctx: ReportContext): Promise<{ state: VenueAccountState | null; reason: string | null }> {
  if (!ctx.venue) return { state: null, reason: "venue not configured" };
  try {
    return { state: await ctx.venue.clearinghouseState(ctx.network.reporting.venue.account), reason: null };
  } catch (e) {
    if (e instanceof VenueReadError) return { state: null, reason: `venue read failed: ${e.message}` };
    throw e;
  }
}

const venueCache = perObject((ctx: ReportContext) => {
  if (ctx.venueMaxAgeSeconds <= 0) return (build: () => Promise<VenueNow>) => build();
  const kept = memo<VenueNow>({ max: 1, ttlMs: ctx.venueMaxAgeSeconds * 1000, keep: (v) => v.state !== null });
  return (build: () => Promise<VenueNow>) => kept("venue", build);
});

export function readVenueNow(ctx: ReportContext): Promise<VenueNow> {
  return venueCache(ctx)(async () => ({ ...(await readVenueState(ctx)), readAtMs: Date.now() }));
}
