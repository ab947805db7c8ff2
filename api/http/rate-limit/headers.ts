/**
 * The RateLimit-Policy and RateLimit fields of the IETF HTTPAPI draft (draft-ietf-httpapi-
 * ratelimit-headers-11), structured-field Lists (RFC 9651) written by structured-headers:
 *
 *   RateLimit-Policy: "free";q=1200;w=60   the policy: q points per w seconds per client
 *   RateLimit: "free";r=1180;t=42         r points left, for the next t seconds
 *
 * `q` is counted in points (cost-table.ts), not requests; the draft's registered units
 * (`qu`: requests, content-bytes, concurrent-requests) have none for it, so no `qu` is sent and
 * docs/api.md#limits says what a point is. A refusal also carries Retry-After: the same t, as the
 * draft asks (no earlier than the end of the effective window).
 */
import { serializeList } from "structured-headers";

/** The policy's name in both fields: the free budget (paid requests are not charged to it). */
export const POLICY_NAME = "free";

export type Policy = { points: number; windowSeconds: number };

export const policyHeader = (p: Policy) =>
  serializeList([
    [
      POLICY_NAME,
      new Map([
        ["q", p.points],
        ["w", p.windowSeconds],
      ]),
    ],
  ]);

/** Whole seconds until the window resets, at least 1 (a client told 0 would retry at once). */
export const resetSeconds = (msBeforeNext: number) => Math.max(1, Math.ceil(msBeforeNext / 1000));

export const limitHeader = (remaining: number, msBeforeNext: number) =>
  serializeList([
    [
      POLICY_NAME,
      new Map([
        ["r", Math.max(0, Math.floor(remaining))],
        ["t", resetSeconds(msBeforeNext)],
      ]),
    ],
  ]);
