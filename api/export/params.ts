/**
 * An export's query string in GraphQL's terms: `where` as JSON, filters as parameters named like
 * `where`'s fields (`direction=redeem`, `usdcAmount_gte=1000000`, `user_in=0xa,0xb`),
 * `fromBlock`/`toBlock` (blockNumber bounds), `block` (a number or a hash: the state as of it),
 * `orderBy`, `orderDirection` and `limit`. Values stay text: the filter compiler parses them by
 * their column's kind, as it does GraphQL's.
 */
import type { BlockHeight } from "../graphql/query/block.js";
import type { EntitySpec } from "../graphql/query/entity.js";
import { invalid } from "../graphql/query/query-error.js";
import { parseKey, type WhereInput } from "../graphql/query/where.js";
import { integerRange } from "../http/query-params.js";

export type ExportQuery = {
  /** The `where` parameter, parsed from JSON. */
  where: unknown;
  /** The filters given as parameters, fromBlock/toBlock among them. */
  filters: WhereInput;
  orderBy?: string;
  orderDirection?: string;
  block?: BlockHeight;
  limit?: number;
};

export const RESERVED = ["where", "fromBlock", "toBlock", "block", "orderBy", "orderDirection", "limit"] as const;

/**
 * What the parameters with a fixed form accept: the checks below and their documented patterns
 * and enums (describe.ts) are these same values.
 */
export const EXPORT_PARAM_FORMS = {
  /** fromBlock, toBlock. */
  blockNumber: /^\d{1,15}$/,
  /** block: a number, or a block hash. */
  block: /^(?:\d{1,15}|0x[0-9a-fA-F]{64})$/,
  /** limit: a whole number of rows, at least 1 (nine digits at most). */
  limit: integerRange(1, 999_999_999),
  /** orderDirection: The Graph's asc/desc and the older ASC/DESC. */
  orderDirection: ["asc", "desc", "ASC", "DESC"],
} as const;

const BLOCK = EXPORT_PARAM_FORMS.blockNumber;

export function exportQuery(spec: EntitySpec, params: URLSearchParams): ExportQuery {
  const q: ExportQuery = { where: undefined, filters: {} };
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) throw invalid(key, `${key} is given ${values.length} times; give it once`);
    const value = values[0]!;
    switch (key) {
      case "where":
        q.where = whereJson(value);
        break;
      case "fromBlock":
      case "toBlock": {
        if (!spec.blockColumn) throw invalid(key, `${spec.connection} has no block column: ${key} does not apply`);
        if (!BLOCK.test(value)) throw invalid(key, `${key} must be a non-negative integer block number`);
        q.filters[`${spec.blockColumn}_${key === "fromBlock" ? "gte" : "lte"}`] = value;
        break;
      }
      case "block":
        if (!EXPORT_PARAM_FORMS.block.test(value))
          throw invalid(key, "block must be a block number or a block hash (0x and 64 hex characters)");
        q.block = value.startsWith("0x") ? { hash: value } : { number: BigInt(value) };
        break;
      case "orderBy":
        // Checked here, before any read: a refusal never waits on the database.
        if (!spec.columns.some((c) => c.name === value))
          throw invalid(key, `orderBy must be a field of ${spec.type}: ${spec.columns.map((c) => c.name).join(", ")}`);
        q.orderBy = value;
        break;
      case "orderDirection":
        if (!(EXPORT_PARAM_FORMS.orderDirection as readonly string[]).includes(value))
          throw invalid(key, `orderDirection must be one of ${EXPORT_PARAM_FORMS.orderDirection.join(", ")}`);
        q.orderDirection = value;
        break;
      case "limit":
        if (!EXPORT_PARAM_FORMS.limit.test(value))
          throw invalid(key, "limit must be a whole number of rows from 1 to 999999999, without leading zeros");
        q.limit = Number(value);
        break;
      default:
        if (!parseKey(spec, key))
          throw invalid(
            key,
            `${key} is not a parameter of this export: filters are named like GraphQL's ${spec.type}_filter fields (${spec.columns.map((c) => c.name).join(", ")}, with _not, _in, _gt, … suffixes), besides ${RESERVED.join(", ")}`,
          );
        q.filters[key] = value;
    }
  }
  return q;
}

function whereJson(text: string): unknown {
  let where: unknown;
  try {
    where = JSON.parse(text);
  } catch {
    throw invalid("where", "where must be JSON: an object of filters as in GraphQL");
  }
  if (where === null || typeof where !== "object" || Array.isArray(where))
    throw invalid("where", "where must be a JSON object of filters, as in GraphQL");
  return where;
}
