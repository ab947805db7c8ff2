/**
 * What readers may spend of the operator's providers, per process, from the configuration: JSON-RPC
 * calls (each call of a batch one; the reports' pinned reads, the live reads, the headers) and
 * venue requests by the venue's own weight. The indexer, the statements, anchoring and the paid
 * gateway have clients of their own and never draw on them (docs/running-on-base.md).
 */
import type { ServiceEnv } from "@kusd/config";
import { currentReaderScope, ReaderBudget, type VenueGate } from "@kusd/rpc";
import { gateVenueRequests, infoRequestWeight } from "../packages/verify/src/index.js";
import { ApiError } from "./http/errors.js";

/**
 * 5 calls a second and a burst of 160: 100 viewers of the reserves page cost the API 0.75 calls a
 * second (2,700 an hour, bench:cost), a report at a past block 1 to 3 calls (up to 12 before the
 * process knows where each contract has code); the burst holds one of every report at the head and
 * a past block from a process that has read nothing (test/e2e/reader-rpc-budget.test.ts: 99-103
 * calls for the 12 on 2026-12-07, the honesty board alone reading both chains for every peer, and
 * a past block's request leaving a quarter of the burst to the head's reports; at 120 the past
 * block was refused in one run of three), and a flood of 67 calls a second from one reader is held
 * to 5.
 */
export const DEFAULT_READER_RPC_CALLS_PER_SECOND = 5;
export const DEFAULT_READER_RPC_BURST = 160;
/**
 * 600 a minute, half the 1,200 Hyperliquid allows an IP address, so readers can never take what the
 * statements' venue reads need. The burst must hold one `/api/hedge-ledger`, which reads the whole
 * ledger from the venue on each request (16 history requests, weight 320, on the devnet's 18,703
 * fills and four months of funding; it grows with the hedge's age): 600, a minute's worth.
 */
export const DEFAULT_READER_VENUE_WEIGHT_PER_MINUTE = 600;
export const DEFAULT_READER_VENUE_BURST = 600;
/** A request waits at most this long in all for the budget before it is answered 503. */
export const DEFAULT_READER_MAX_WAIT_MS = 1_000;

export type ReaderBudgets = {
  /** JSON-RPC calls, on both chains' read RPCs. */
  rpc: ReaderBudget;
  /** Venue requests, by weight (infoRequestWeight). */
  venue: ReaderBudget;
};

function refusal(budget: "rpc" | "venue") {
  const what = budget === "rpc" ? "RPC calls" : "venue requests";
  return (retryAfterSeconds: number) =>
    new ApiError(
      "reader_rpc_budget_exhausted",
      `the ${what} readers may cause are spent for now; retry after ${retryAfterSeconds} s (answers already cached are served)`,
      { budget, retryAfterSeconds },
    );
}

export function readerBudgets(
  env: Pick<
    ServiceEnv,
    | "KUSD_READER_RPC_CALLS_PER_SECOND"
    | "KUSD_READER_RPC_BURST"
    | "KUSD_READER_VENUE_WEIGHT_PER_MINUTE"
    | "KUSD_READER_VENUE_BURST"
    | "KUSD_READER_MAX_WAIT_MS"
  >,
): ReaderBudgets {
  const maxWaitMs = env.KUSD_READER_MAX_WAIT_MS ?? DEFAULT_READER_MAX_WAIT_MS;
  return {
    rpc: new ReaderBudget({
      perSecond: env.KUSD_READER_RPC_CALLS_PER_SECOND ?? DEFAULT_READER_RPC_CALLS_PER_SECOND,
      burst: env.KUSD_READER_RPC_BURST ?? DEFAULT_READER_RPC_BURST,
      maxWaitMs,
      refuse: refusal("rpc"),
    }),
    venue: new ReaderBudget({
      perSecond: (env.KUSD_READER_VENUE_WEIGHT_PER_MINUTE ?? DEFAULT_READER_VENUE_WEIGHT_PER_MINUTE) / 60,
      burst: env.KUSD_READER_VENUE_BURST ?? DEFAULT_READER_VENUE_BURST,
      maxWaitMs,
      refuse: refusal("venue"),
    }),
  };
}

/** What a reader request's venue requests to the service's venue (`url`) draw on. */
export const venueGate = (url: string | null, budget: ReaderBudget): VenueGate | null =>
  url ? { url, take: (weight) => budget.take(weight) } : null;

/**
 * Every venue request of the process passes here (packages/verify's postInfo): one made while
 * answering a reader's request, to the venue that request's service reads, waits for its weight.
 * Requests to a venue a reader named (an MCP tool's) are the reader's own, and the operator's
 * (statements) run outside any reader's request.
 */
export function gateReadersVenueRequests(): void {
  gateVenueRequests(async (url, body) => {
    const gate = currentReaderScope()?.venue;
    if (gate && gate.url === url) await gate.take(infoRequestWeight(body));
  });
}
