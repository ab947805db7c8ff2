/**
 * What each request costs a client's free budget, in points (docs/api.md#limits): the one table,
 * each cost with its reason. A point is about what a report at the indexed head costs: an answer
 * kept per block and served from memory. costs.ts picks a request's row.
 */

import { LIMITS } from "../../graphql/limits.js";
import { BATCH_ROWS } from "../../graphql/query/batches.js";

export type Cost = { points: number; reason: string };

/** A block this close below the indexed head is the head's: its snapshot is the one every head reader just made. */
export const RECENT_BLOCKS = 2n;

/** Rows of an export per batch: the keyset batch an export reads at a time. */
export const EXPORT_BATCH_ROWS = BATCH_ROWS;

/** Points per batch of an export. */
const EXPORT_BATCH_POINTS = 2;

/** An export without `limit` is charged as this many batches. */
export const WHOLE_EXPORT_BATCHES = 20;

/** GraphQL Armor's complexity per point. */
export const COMPLEXITY_PER_POINT = 500;

const thousands = (n: number) => n.toLocaleString("en-US");

export const COSTS = {
  page: {
    points: 0,
    reason:
      "the reserves page's files (`/`, `/assets/*`): served from memory, never counted (counting one would cost more than serving it)",
  },
  report: {
    points: 1,
    reason: `a report at the indexed head (or a block at most ${RECENT_BLOCKS} below it): built once per block, then served from memory`,
  },
  past_block: {
    points: 20,
    reason:
      "a report at a past block (`?block=N`): a chain snapshot at N, 1 to 4 billed RPC calls and a build, unless another reader asked for N moments ago",
  },
  venue_ledger: {
    points: 20,
    reason:
      "`/api/hedge-ledger`: the hedge's whole ledger read from the venue on each request (16 history requests on the devnet, weight 320 of the 1,200 a minute the venue allows an address)",
  },
  indexed_range: {
    points: 2,
    reason:
      "`/api/history`, `/api/events/*`, `/api/por/accounts/violations`: a range read from the indexed tables per request",
  },
  export_batch: {
    points: EXPORT_BATCH_POINTS,
    reason: `an export, per ${thousands(EXPORT_BATCH_ROWS)} rows its \`limit\` allows: one keyset batch read from the indexed tables and encoded`,
  },
  export_whole: {
    points: EXPORT_BATCH_POINTS * WHOLE_EXPORT_BATCHES,
    reason: `an export without \`limit\`: a whole table, charged as ${WHOLE_EXPORT_BATCHES} batches`,
  },
  graphql: {
    points: 1,
    reason: `GraphQL: 1, plus 1 per ${COMPLEXITY_PER_POINT} of the query's complexity (GraphQL Armor's cost, the one its ${thousands(LIMITS.maxCost)} limit applies to), plus each \`reserves\` or \`stats\` field as the REST report it builds`,
  },
  subscription: {
    points: 10,
    reason:
      "opening a subscription (GraphQL over server-sent events, or a WebSocket at /graphql): a stream held open and pushed every block",
  },
  mcp: {
    points: 1,
    reason: "an MCP request; `tools/call` of a report tool costs what its REST route costs",
  },
  rederive: {
    points: 50,
    reason:
      "`verify_report` (plus the report it reads by `path`), or `verify_statement` with `rpc`: every figure read again from the RPC it names and re-derived in this process",
  },
  paid: {
    points: 0,
    reason:
      "a paid route (`/paid/*`) with a payment header: paid for, not charged to the free budget; a payment the gateway refuses (4xx) is charged afterwards as an unpaid request",
  },
  unpaid: {
    points: 1,
    reason: "a paid route without a payment header: answered 402 with the price",
  },
  unpaid_instant_read: {
    points: 5,
    reason: "`POST /paid/instant-read` without a payment header: the token is read from the chain before the 402",
  },
  other: {
    points: 1,
    reason:
      "anything else: documents (`/api/openapi.json`, `/api/network`, `/llms.txt`), statements, health, an unknown path",
  },
} as const satisfies Record<string, Cost>;

export type CostName = keyof typeof COSTS;

/** What a request is charged: its points and the row it was charged by (the `route` of kusd_rate_limited_total). */
export type Charge = {
  route: CostName;
  points: number;
  /** Charged once the answer is known, beside `points` (a payment the gateway refused). */
  after?: (status: number) => number;
};

/** docs/api.md's table of costs (checked by costs.test.ts): the table above, row for row. */
export function costTableMarkdown(): string {
  const rows = Object.entries(COSTS).map(
    ([name, c]) => `| \`${name}\` | ${c.points} | ${c.reason.replaceAll("|", "\\|")} |`,
  );
  return ["| row (`route` on /metrics) | points | what it pays for |", "|---|---:|---|", ...rows].join("\n");
}
