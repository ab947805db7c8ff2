/**
 * Per-client limits on every route of the app (docs/api.md#limits): each request is charged its
 * cost (costs.ts) up front against its client's budget (client-identity.ts, store.ts). Under the
 * budget the answer carries RateLimit-Policy and RateLimit; over it the request is answered
 * `429 rate_limited` with Retry-After and both fields, before anything of it runs.
 *
 * A refusal is held before it is sent, up to REFUSAL_HOLD_MS and never past the client's window:
 * a client that asks again at once (a loop that ignores Retry-After) then costs the process one
 * refusal a second per connection instead of thousands, which would take the CPU every other
 * reader needs (npm run bench:flood: 61,000 refusals in 30 s from 32 loops without it). At most
 * MAX_HELD refusals wait at once; past that they are sent at once.
 *
 * Not charged: a request with no socket (an MCP tool's in-process call of a route: the MCP request
 * that made it was charged for it), a client in KUSD_RATE_LIMIT_EXEMPT, a request of cost 0 (the
 * page's files, a paid request). CORS preflights are answered before this middleware runs.
 */
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { errorBody } from "../errors.js";
import { type AddressMatcher, clientAddress, clientKey } from "./client-identity.js";
import { type Charge, COSTS } from "./cost-table.js";
import { costOf } from "./costs.js";
import { limitHeader, policyHeader } from "./headers.js";
import type { RateLimitMetrics } from "./metrics.js";
import { rateLimited } from "./refusal.js";
import type { RateLimitStore } from "./store.js";

/** The limits as the service configures them (services.ts). */
export type RateLimitParts = {
  store: RateLimitStore;
  /** Reverse proxies whose X-Forwarded-For is believed (KUSD_TRUSTED_PROXIES). */
  trustedProxies: AddressMatcher;
  /** Clients never limited (KUSD_RATE_LIMIT_EXEMPT). */
  exempt: AddressMatcher;
  metrics: RateLimitMetrics | null;
};

/** How long a refusal is held at most (the unit tests set 0). */
export const REFUSAL_HOLD_MS = 1_000;
/** Refusals held at once, per app: a timer and an idle socket each. */
const MAX_HELD = 1_024;

export type RateLimitOptions = RateLimitParts & {
  /** How long a refusal is held before it is sent (default REFUSAL_HOLD_MS). */
  refusalHoldMs?: number;
  /** The indexed head, to tell a past block from the head's. */
  indexedHead(): Promise<bigint | null>;
  /** Bodies up to this size are read for their cost (a GraphQL document, an MCP call); larger ones are refused 413 later. */
  maxBodyBytes: number;
};

export function rateLimit(o: RateLimitOptions): MiddlewareHandler {
  const policy = policyHeader(o.store.policy);
  const holdMs = o.refusalHoldMs ?? REFUSAL_HOLD_MS;
  let held = 0;
  /** Waits before a refusal; how long it waited. */
  const hold = async (msBeforeNext: number): Promise<number> => {
    const ms = Math.min(holdMs, Math.max(0, msBeforeNext - 1_000));
    if (ms <= 0 || held >= MAX_HELD) return 0;
    held += 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      held -= 1;
    }
    return ms;
  };
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming) return next();
    const address = clientAddress(incoming, o.trustedProxies);
    if (address === null || o.exempt(address)) return next();
    const key = clientKey(address);
    const charge = await chargeOf(c, o);
    if (charge.points === 0) {
      await next();
      return chargeAfter(c, o, key, charge);
    }
    const consumed = await o.store.consume(key, charge.points);
    if (consumed.outcome === "failed") {
      o.metrics?.storeFailed();
      return next();
    }
    if (consumed.outcome === "refused") {
      o.metrics?.refused(charge.route);
      const waited = await hold(consumed.msBeforeNext);
      return refusal(c, charge.points, consumed.msBeforeNext - waited, o.store.policy);
    }
    await next();
    c.header("RateLimit-Policy", policy);
    c.header("RateLimit", limitHeader(consumed.remaining, consumed.msBeforeNext));
    await chargeAfter(c, o, key, charge);
  };
}

/** The request's cost; one that cannot be told (a bug of the cost rules) is charged as "other", never a 500. */
async function chargeOf(c: Context, o: RateLimitOptions): Promise<Charge> {
  const url = new URL(c.req.url);
  try {
    return await costOf({
      method: c.req.method,
      path: url.pathname,
      query: url.searchParams,
      header: (name) => c.req.header(name),
      body: () => readBody(c, o.maxBodyBytes),
      indexedHead: o.indexedHead,
    });
  } catch {
    return { route: "other", points: COSTS.other.points };
  }
}

/**
 * The body as text, read from a copy so the route still reads it; only when its declared length
 * is within the limit (a chunked body, or a larger one, is not read here).
 */
async function readBody(c: Context, maxBytes: number): Promise<string | null> {
  const length = c.req.header("content-length");
  if (c.req.raw.headers.has("transfer-encoding") || length === undefined || !/^\d+$/.test(length)) return null;
  if (Number(length) > maxBytes) return null;
  return c.req.raw.clone().text();
}

/** What is charged once the answer is known (a refused payment); the answer is out either way. */
async function chargeAfter(c: Context, o: RateLimitOptions, key: string, charge: Charge): Promise<void> {
  const points = charge.after?.(c.res.status) ?? 0;
  if (points === 0) return;
  const consumed = await o.store.consume(key, points);
  if (consumed.outcome === "failed") o.metrics?.storeFailed();
}

function refusal(c: Context, cost: number, msBeforeNext: number, policy: RateLimitStore["policy"]) {
  const { error, headers } = rateLimited(policy, cost, msBeforeNext);
  return c.json(errorBody(error.code, error.message, error.details), error.status, headers);
}
