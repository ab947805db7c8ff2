/**
 * The off-chain half of /api/risk-status: what no block can prove. The venue publishes current
 * state only, so at a past block its triggers are unknown (null), never judged from today's read.
 */
import { STATEMENT_MAX_AGE_SECONDS } from "../attestation/verify.js";
import type { OffChainTrigger } from "./risk-status.js";

/**
 * A venue answer whose own clock is more than this behind ours is not current equity: a stalled
 * venue API or a skewed clock, and in both cases the mirror cannot be checked against it.
 */
export const VENUE_EQUITY_MAX_AGE_SECONDS = 60;

export type OffChainInputs = {
  atHead: boolean;
  /** The operator's venue account whose equity backs the mirror. */
  venueAccount: string;
  /** The venue's answer, or null with the reason it is missing. */
  venue: { equityUsd: number; timeMs: number | null } | null;
  venueReason: string | null;
  /** The signed time of the latest published statement, null when none is published. */
  statementSignedAt: number | null;
  /** Unix seconds. */
  now: number;
};

export function offChainTriggers(i: OffChainInputs): OffChainTrigger[] {
  const known = i.atHead;
  const equityAge = i.venue?.timeMs == null ? null : Math.max(0, Math.floor(i.now - i.venue.timeMs / 1000));
  const statementAge = i.statementSignedAt === null ? null : i.now - i.statementSignedAt;
  const missing = i.venueReason ?? "not read";
  return [
    {
      id: "venue.reachable",
      value: known ? i.venue !== null : null,
      safe: known ? i.venue !== null : null,
      safeWhen: "true",
      detail: i.venue ? `the venue answered clearinghouseState for ${i.venueAccount}` : missing,
    },
    {
      id: "venue.equityUsd",
      value: i.venue?.equityUsd ?? null,
      safe: known ? i.venue !== null : null,
      safeWhen: "read now (the venue publishes current equity only)",
      detail:
        "marginSummary.accountValue of the operator's venue account, the same read as /api/por's venue; the mirror l1Assets counts at most this",
    },
    {
      id: "venue.equityAgeSeconds",
      value: equityAge,
      safe: known ? equityAge !== null && equityAge <= VENUE_EQUITY_MAX_AGE_SECONDS : null,
      safeWhen: `≤ ${VENUE_EQUITY_MAX_AGE_SECONDS}`,
      detail:
        equityAge === null
          ? i.venue
            ? "the venue's answer carries no time"
            : missing
          : `our clock minus the venue's own time of the answer (clearinghouseState.time): ${equityAge} s`,
    },
    {
      id: "statement.ageSeconds",
      value: statementAge,
      safe: statementAge === null ? false : statementAge <= STATEMENT_MAX_AGE_SECONDS,
      safeWhen: `≤ ${STATEMENT_MAX_AGE_SECONDS}`,
      detail:
        statementAge === null
          ? "no signed statement is published"
          : `the latest signed statement was signed ${statementAge} s ago (hourly; kusd-verify's default limit is ${STATEMENT_MAX_AGE_SECONDS} s)`,
    },
  ];
}
