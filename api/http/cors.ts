/**
 * CORS for browsers on any origin, once for every route (REST, /graphql, /paid/*): hono/cors with
 * `Access-Control-Allow-Origin: *` and never credentials (the API has no cookies or sessions, and
 * `*` with `Allow-Credentials: true` is a pair browsers refuse). A page on another origin can read
 * what x402 and caching put in headers, and send the payment header after a preflight.
 *
 * graphql-yoga's own CORS is off (yoga.ts): its default answered `*` with credentials.
 * Under `npm start`, Ponder's server runs its own hono/cors (`*`, no credentials, max-age one
 * day) before this app: it answers preflights itself, allowing whatever headers they ask for.
 */
import { cors } from "hono/cors";

/** Response headers a cross-origin script may read (beyond the CORS-safelisted ones). */
export const EXPOSED_HEADERS = [
  "PAYMENT-REQUIRED",
  "PAYMENT-RESPONSE",
  "ETag",
  "X-Request-Id",
  "Retry-After",
  "Allow",
  "Content-Length",
] as const;

/** Request headers a preflight allows: the x402 payment (v2 and v1 names), a JSON body, a conditional GET. */
export const ALLOWED_REQUEST_HEADERS = [
  "Content-Type",
  "PAYMENT-SIGNATURE",
  "X-PAYMENT",
  "If-None-Match",
  "Accept",
] as const;

/** Chromium caps a cached preflight at two hours. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

export function anyOriginCors() {
  return cors({
    origin: "*",
    credentials: false,
    allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
    allowHeaders: [...ALLOWED_REQUEST_HEADERS],
    exposeHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
}
