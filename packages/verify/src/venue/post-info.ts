/**
 * One request to a Hyperliquid-style `POST /info` endpoint (the venue's public, unauthenticated
 * per-address API), bounded in time. Every venue read, the service's and a reader's, goes through
 * here, and so through the process's gate when one is set (`gateVenueRequests`: the API's budget
 * of the venue requests readers cause).
 */
import { VenueReadError } from "./venue-read-error.js";

export const VENUE_TIMEOUT_MS = 5_000;

/**
 * Asked before each request is sent; it may wait, or throw to refuse the request (the error
 * reaches the caller as it is, not as a VenueReadError: the venue was not asked).
 */
export type VenueRequestGate = (url: string, body: Record<string, unknown>) => Promise<void> | void;

// Kept on globalThis: a process may load this module in more than one module graph.
const GATE = Symbol.for("kusd.venueRequestGate");
const gates = globalThis as { [GATE]?: VenueRequestGate | null };

/** Sets (or, with null, removes) the gate every venue request of this process passes. */
export function gateVenueRequests(gate: VenueRequestGate | null): void {
  gates[GATE] = gate;
}

/**
 * What a request weighs against Hyperliquid's limit of 1,200 a minute per IP address
 * (https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits):
 * 2 for the light reads, 60 for userRole, 20 for the others; the history requests also weigh one
 * more per 20 items they return, which is known only once answered.
 */
export function infoRequestWeight(body: Record<string, unknown>): number {
  const type = body.type;
  if (typeof type === "string" && LIGHT_REQUESTS.has(type)) return 2;
  return type === "userRole" ? 60 : 20;
}
const LIGHT_REQUESTS = new Set([
  "l2Book",
  "allMids",
  "clearinghouseState",
  "orderStatus",
  "spotClearinghouseState",
  "exchangeStatus",
]);

export async function postInfo(
  url: string,
  body: Record<string, unknown>,
  timeoutMs = VENUE_TIMEOUT_MS,
): Promise<unknown> {
  await gates[GATE]?.(url, body);
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
