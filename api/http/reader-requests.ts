/**
 * Every request is a reader's request (packages/rpc/src/reader-scope.ts): when the readers'
 * budget refused one of the reads it needed, the whole answer is a 503
 * `reader_rpc_budget_exhausted` with Retry-After (the seconds until the budget holds the call),
 * never a report with that figure null as though the chain had failed it, nor a 500. What the
 * request found cached cost no call and answers as usual.
 *
 * GET /metrics and /api/health report on the service rather than for a reader: they stay 200,
 * with what their budgeted reads could not get as unknown (health's "down" dependency).
 */
import { inReaderRequest, readerRefusal, type VenueGate } from "@kusd/rpc";
import type { Context, MiddlewareHandler } from "hono";
import { ApiError, errorBody } from "./errors.js";

const ALWAYS_ANSWERED = new Set(["/metrics", "/api/health"]);

export function readerRequests(o: { venue: VenueGate | null }): MiddlewareHandler {
  return async (c, next) => {
    if (ALWAYS_ANSWERED.has(c.req.path)) return next();
    const scope = await inReaderRequest(() => next(), { venue: o.venue });
    const refusal = scope.refusal ?? readerRefusal(c.error);
    if (refusal instanceof ApiError) answerRefused(c, refusal);
  };
}

/** The 503 in place of whatever the route answered: none of its headers (an ETag, caching) but the request id and CORS. */
function answerRefused(c: Context, refusal: ApiError): void {
  const headers = new Headers({
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "Retry-After": String(refusal.details.retryAfterSeconds),
  });
  for (const [name, value] of c.res.headers)
    if (name === "x-request-id" || name === "vary" || name.startsWith("access-control-")) headers.set(name, value);
  const body = JSON.stringify(errorBody(refusal.code, refusal.message, refusal.details));
  c.res = undefined;
  c.res = new Response(body, { status: refusal.status, headers });
}
