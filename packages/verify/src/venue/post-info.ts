/**
 * One request to a Hyperliquid-style `POST /info` endpoint (the venue's public, unauthenticated
 * per-address API), bounded in time. Every venue read, the service's and a reader's, goes through
 * here.
 */
import { VenueReadError } from "./venue-read-error.js";

export const VENUE_TIMEOUT_MS = 5_000;

export async function postInfo(
  url: string,
  body: Record<string, unknown>,
  timeoutMs = VENUE_TIMEOUT_MS,
): Promise<unknown> {
  const request = JSON.stringify(body);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: request,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new VenueReadError("venue unreachable", { url, request, cause: (e as Error).message });
  }
  if (!res.ok) throw new VenueReadError(`venue answered ${res.status}`, { url, request, status: res.status });
  try {
    return await res.json();
  } catch (e) {
    throw new VenueReadError("venue answer is not JSON", { url, request, cause: (e as Error).message });
  }
}

/** A decimal string or number from a venue answer; anything else fails the read, naming the field. */
export function venueNumber(v: unknown, field: string, ctx: { url: string; request: string }): number {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : Number.NaN;
  if (!Number.isFinite(n)) throw new VenueReadError(`venue answer lacks a numeric ${field}`, ctx);
  return n;
}

export function venueObject(v: unknown, field: string, ctx: { url: string; request: string }): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new VenueReadError(`venue answer lacks ${field}`, ctx);
  return v as Record<string, unknown>;
}
