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

const BLOCK = /^\d{1,15}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

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
        if (BLOCK.test(value)) q.block = { number: BigInt(value) };
        else if (HASH.test(value)) q.block = { hash: value };
        else throw invalid(key, "block must be a block number or a block hash (0x and 64 hex characters)");
        break;
      case "orderBy":
        q.orderBy = value;
        break;
      case "orderDirection":
        q.orderDirection = value;
        break;
      case "limit":
        if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
          throw invalid(key, "limit must be a whole number of rows, at least 1");
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
