/**
 * The answer to a client over its budget, the same from the app and from a WebSocket upgrade:
 * `429 rate_limited` (the catalogue's JSON error), Retry-After, and both RateLimit fields.
 */
import { ApiError } from "../errors.js";
import { limitHeader, type Policy, policyHeader, resetSeconds } from "./headers.js";

export function rateLimited(
  policy: Policy,
  cost: number,
  msBeforeNext: number,
): { error: ApiError; headers: Record<string, string> } {
  const retryAfterSeconds = resetSeconds(msBeforeNext);
  const error = new ApiError(
    "rate_limited",
    `this client's free budget of ${policy.points} points per ${policy.windowSeconds} s is spent (this request costs ${cost}); retry after Retry-After seconds (docs/api.md#limits)`,
    { retryAfterSeconds, cost, budget: policy.points, windowSeconds: policy.windowSeconds },
  );
  return {
    error,
    headers: {
      "Retry-After": String(retryAfterSeconds),
      "RateLimit-Policy": policyHeader(policy),
      RateLimit: limitHeader(0, msBeforeNext),
    },
  };
}
