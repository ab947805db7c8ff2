/**
 * Which row of the cost table (cost-table.ts) a request is charged by, and how many points: from
 * what the request says (its route, `?block=`, `limit`, its GraphQL document, its MCP tool), before
 * any of it runs.
 */
import { EXPORT_PARAM_FORMS } from "../../export/params.js";
import { blockParam } from "../query-params.js";
import { type Charge, COSTS, type CostName, EXPORT_BATCH_ROWS, RECENT_BLOCKS } from "./cost-table.js";
import { GRAPHQL_UNREAD_POINTS, graphqlCost } from "./graphql-cost.js";
import { mcpCost } from "./mcp-cost.js";

/** What a request says about itself, for its cost. */
export type CostRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  header(name: string): string | undefined;
  /** The body as text, or null when it is not read (over the body limit, or of no declared length). */
  body(): Promise<string | null>;
  /** The indexed head (null: unknown). */
  indexedHead(): Promise<bigint | null>;
};

const charge = (route: CostName, points: number = COSTS[route].points): Charge => ({ route, points });

/** The payment headers the gateway reads (api/paid/replay-guard.ts). */
const PAYMENT_HEADERS = ["payment-signature", "x-payment"];

const INDEXED_RANGES = /^\/api\/(history|events\/[^/]+|por\/accounts\/violations)$/;
const EXPORT = /^\/api\/export\/[^/]+\.(csv|ndjson)$/;
/** Routes under /api/ that are documents or stored statements, not reports built at a block. */
const NOT_REPORTS = /^\/api\/(openapi\.json|network|por\/signed|por\/signer-registry)(\/|$)/;

export async function costOf(r: CostRequest): Promise<Charge> {
  const { method, path } = r;
  const read = method === "GET" || method === "HEAD";
  if (path === "/paid" || path.startsWith("/paid/")) return paidCost(r);
  if (path === "/graphql") return graphqlRequestCost(r);
  if (path === "/mcp" && method === "POST")
    return mcpCost(await r.body(), (pathAndQuery) => costOf(toolCall(pathAndQuery, r)));
  if (!read) return charge("other");
  if (path === "/" || path.startsWith("/assets/")) return charge("page");
  if (EXPORT.test(path)) {
    const points = exportPoints(r.query.get("limit"));
    return charge(points === COSTS.export_whole.points ? "export_whole" : "export_batch", points);
  }
  if (INDEXED_RANGES.test(path)) return charge("indexed_range");
  if (path === "/api/hedge-ledger") return charge("venue_ledger");
  if (!path.startsWith("/api/") || NOT_REPORTS.test(path)) return charge("other");
  const block = r.query.get("block");
  if (block === null) return charge("report");
  return (await blockPoints(block, r.indexedHead)) === COSTS.past_block.points
    ? charge("past_block")
    : charge("report");
}

/**
 * A report's `block` parameter: a block at or near the indexed head costs a report's point, any
 * other block a snapshot's. A value the route refuses (blockParam, the route's own check) costs
 * a point: it is answered 400 before anything is read.
 */
export async function blockPoints(value: string, indexedHead: () => Promise<bigint | null>): Promise<number> {
  if (!blockParam.safeParse(value).success || value === "" || value === "latest") return COSTS.report.points;
  const head = await indexedHead().catch(() => null);
  return head !== null && BigInt(value) >= head - RECENT_BLOCKS ? COSTS.report.points : COSTS.past_block.points;
}

/** An export's points by its `limit`: per batch of rows it may stream, a whole table's without one. */
export function exportPoints(limit: string | null): number {
  if (limit === null) return COSTS.export_whole.points;
  // A malformed limit is refused 400 before any row is read: one batch's points.
  if (!EXPORT_PARAM_FORMS.limit.test(limit)) return COSTS.export_batch.points;
  const batches = Math.ceil(Number(limit) / EXPORT_BATCH_ROWS);
  return Math.min(COSTS.export_whole.points, batches * COSTS.export_batch.points);
}

function paidCost(r: CostRequest): Charge {
  const unpaid: CostName = r.method === "POST" && r.path === "/paid/instant-read" ? "unpaid_instant_read" : "unpaid";
  if (!PAYMENT_HEADERS.some((h) => r.header(h) !== undefined)) return charge(unpaid);
  // A payment refused (malformed, forged, used before, short of funds) had the gateway's checks,
  // and for an instant read the token's chain reads, for nothing: charged as an unpaid request.
  const points = COSTS[unpaid].points;
  return { ...charge("paid"), after: (status) => (status >= 400 && status < 500 ? points : 0) };
}

async function graphqlRequestCost(r: CostRequest): Promise<Charge> {
  const atBlock = (block: string) => blockPoints(block, r.indexedHead);
  if (r.method === "POST") {
    const body = await r.body();
    if (body === null) return charge("graphql", GRAPHQL_UNREAD_POINTS);
    try {
      return await graphqlCost(JSON.parse(body), atBlock);
    } catch {
      // Not JSON: yoga refuses it before parsing any document.
      return charge("graphql");
    }
  }
  const query = r.query.get("query");
  // Without a query, GET /graphql is GraphiQL's page.
  if (query === null) return charge("graphql");
  let variables: unknown;
  try {
    variables = JSON.parse(r.query.get("variables") ?? "null");
  } catch {
    variables = null; // refused 400 by the route (malformedGetParams) before yoga runs
  }
  return graphqlCost({ query, operationName: r.query.get("operationName"), variables }, atBlock);
}

/** A GET of `pathAndQuery` as an MCP tool makes it in process: the route behind the tool, for its cost. */
function toolCall(pathAndQuery: string, outer: CostRequest): CostRequest {
  const url = new URL(pathAndQuery, "http://in-process.invalid");
  return {
    method: "GET",
    path: url.pathname,
    query: url.searchParams,
    header: () => undefined,
    body: async () => null,
    indexedHead: outer.indexedHead,
  };
}
