/**
 * Errors the HTTP layer answers with a JSON body `{ error: { code, message, details } }`.
 * Codes are stable strings clients can match on, each with its status in one catalogue
 * (error-codes.ts); the status is 4xx for anything the caller can fix, and a handler bug is
 * masked as `internal_error` without internals.
 */

import { KusdError } from "@kusd/core";
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CHAIN_RETRY_AFTER_SECONDS, isChainUnavailable } from "../io/chain-errors.js";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../io/database-errors.js";
import { type ErrorCode, statusOf } from "./error-codes.js";

/** A KusdError with a catalogued code, answered with that code's status. */
export class ApiError extends KusdError {
  override name = "ApiError";
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
    this.status = statusOf(code);
  }
}

/** A 400: a code the catalogue has at 400, or `invalid_<parameter>`. */
export const badRequest = (code: ErrorCode, message: string, details?: Record<string, unknown>) =>
  new ApiError(code, message, details);

export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, details } };
}

/**
 * Domain errors (thrown by core/ and the services, which know no HTTP) the edge answers by their
 * code: a registry proof that does not check out, and a pinned read a route cannot do without
 * (ChainReadError escaping it). Any other escapes as `internal_error`.
 */
const ANSWERED_DOMAIN_CODES: ReadonlySet<string> = new Set<ErrorCode>(["registry_proof_invalid", "chain_read_failed"]);

/** The database down (stopped, restarting, unreachable): the caller may retry, nothing is wrong with the request. */
export const databaseUnavailable = () =>
  new ApiError("database_unavailable", "the database is unavailable; retry after Retry-After seconds", {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });

/** The answer an error gets at the edge: ApiError as itself, a domain error by its code, the database or the chain RPC down as 503, else null. */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  if (isChainUnavailable(err))
    return new ApiError("chain_read_failed", "the chain RPC did not answer; retry after Retry-After seconds", {
      retryAfterSeconds: CHAIN_RETRY_AFTER_SECONDS,
    });
  if (!(err instanceof KusdError) || !ANSWERED_DOMAIN_CODES.has(err.code)) return null;
  // A domain error's details may hold bigints (a block number): as decimal strings, JSON can carry them.
  const details = JSON.parse(
    JSON.stringify(err.details, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
  ) as Record<string, unknown>;
  return new ApiError(err.code as ErrorCode, err.message, details);
}

/** Hono onError handler: ApiError as itself, a known domain error by its code; anything else a masked 500 (logged, not leaked). */
export function onApiError(err: Error, c: Context) {
  const known = asApiError(err);
  if (known) {
    const retryAfter = known.details.retryAfterSeconds;
    if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
    return c.json(errorBody(known.code, known.message, known.details), known.status);
  }
  // The id joins the caller's report to the log line; nothing else of the failure leaves the process.
  const requestId = (c.get("requestId") as string | undefined) ?? crypto.randomUUID();
  console.error(`[api] ${requestId} ${c.req.method} ${c.req.path}:`, err);
  return c.json(
    errorBody("internal_error", "internal error: report the requestId to the operator", { requestId }),
    500,
  );
}

/**
 * A feature's routes with the API's error handling, as createApp mounts them: the features' own
 * Hono apps set no handler and inherit the root's, so a test of one feature mounts it here.
 */
export const withApiErrors = (routes: Hono) => new Hono().onError(onApiError).route("/", routes);

export const notFound = (c: Context) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`), 404);
