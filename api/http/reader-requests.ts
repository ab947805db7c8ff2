/**
 * Every request is a reader's request (packages/rpc/src/reader-scope.ts): when the readers'
 * budget refused one of the reads it needed, the whole answer is a 503
 * `reader_rpc_budget_exhausted` with Retry-After (the seconds until the budget holds the call),
 * never a report with that figure null as though the chain had failed it, nor a 500. What the
 * request found cached cost no call and answers as usual.
 *
 * A request whose reads are its own (readsOwnBlocks) leaves a reserve of the budget to the reports
 * at the head, which every reader shares (packages/rpc/src/reader-budget.ts).
 *
 * GET /metrics and /api/health report on the service rather than for a reader: they stay 200,
 * with what their budgeted reads could not get as unknown (health's "down" dependency).
 */
import { inReaderRequest, readerRefusal, type VenueGate } from "@kusd/rpc";
import type { Context, MiddlewareHandler } from "hono";
import { ApiError, errorBody } from "./errors.js";
import { COSTS } from "./rate-limit/cost-table.js";
import { blockPoints } from "./rate-limit/costs.js";

const ALWAYS_ANSWERED = new Set(["/metrics", "/api/health"]);

/**
 * Whether a request's reads are its own rather than what every reader shares: a report at a past
 * block (`?block=` below the head's, as the limits tell it: rate-limit/costs.ts), and what GraphQL
 * and MCP run (any block, a tool's own reads). A GET of a report at the head is built once per
 * block for everyone; it keeps the budget's reserve.
 */
export async function readsOwnBlocks(
  method: string,
  path: string,
  query: (name: string) => string | undefined,
  indexedHead: () => Promise<bigint | null>,
): Promise<boolean> {
  if (method !== "GET" || path === "/graphql" || path === "/mcp") return true;
  const block = query("block");
  return block !== undefined && (await blockPoints(block, indexedHead)) === COSTS.past_block.points;
}

export function readerRequests(o: {
  venue: VenueGate | null;
  /** The indexed head, to tell a past block from the head's (none: every `?block=` is a past one). */
  indexedHead?: () => Promise<bigint | null>;
}): MiddlewareHandler {
  const indexedHead = o.indexedHead ?? (async () => null);
  return async (c, next) => {
    if (ALWAYS_ANSWERED.has(c.req.path)) return next();
    const own = await readsOwnBlocks(c.req.method, c.req.path, (name) => c.req.query(name), indexedHead);
    const scope = await inReaderRequest(() => next(), { venue: o.venue, own });
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
