/**
 * Errors the HTTP layer answers with a JSON body `{ error: { code, message, details } }`.
 * Codes are stable strings clients can match on; the status is 4xx for anything the caller
 * can fix, and a handler bug is masked as `internal_error` without internals.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { KusdError } from "../../core/errors.js";

/** A KusdError with the HTTP status the edge answers it with. */
export class ApiError extends KusdError {
  override name = "ApiError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) => new ApiError(400, code, message, details);

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { code, message, details } };
}

/** Hono onError handler: ApiError as itself; anything else a masked 500 (logged, not leaked). */
export function onApiError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status);
  console.error(`[api] ${c.req.method} ${c.req.path}:`, err);
  return c.json(errorBody("internal_error", "internal error"), 500);
}

export const notFound = (c: Context) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`), 404);
