/**
 * An export route's entry in /api/openapi.json, from the entity's spec: every parameter it takes
 * (a filter per column, named as in GraphQL; the operator suffixes are described), and the
 * CSV or NDJSON it answers.
 */
import type { DescribeRouteOptions } from "hono-openapi";
import type { EntitySpec } from "../graphql/query/entity.js";
import { MAX_PAGE } from "../graphql/query/page.js";
import { FILTER_LIMITS } from "../graphql/query/where.js";
import type { ExportFormat } from "./format.js";
import { EXPORT_PARAM_FORMS as FORMS } from "./params.js";

type Parameter = { name: string; in: "query"; required: false; description: string; schema: Record<string, unknown> };

const param = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

const errorContent = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

export function exportDescription(spec: EntitySpec, format: ExportFormat): DescribeRouteOptions {
  const what = format === "csv" ? "CSV, a header row naming each column's unit" : "NDJSON, one JSON object per line";
  const parameters = [
    param(
      "where",
      `GraphQL's ${spec.type}_filter as JSON, e.g. {"OR":[{"${spec.columns[1]!.name}":"…"}]}; AND/OR nest at most ${FILTER_LIMITS.maxNesting} deep`,
    ),
    ...(spec.blockColumn
      ? [
          param("fromBlock", "blockNumber at least", { type: "string", pattern: FORMS.blockNumber.source }),
          param("toBlock", "blockNumber at most", { type: "string", pattern: FORMS.blockNumber.source }),
        ]
      : []),
    param(
      "block",
      `The rows as of this block (a number, or a hash on the canonical chain), at or below the indexed head; default: ${spec.blockColumn ? "the indexed head when the export starts" : "as indexed now"}`,
      { type: "string", pattern: FORMS.block.source },
    ),
    param("orderBy", `A field to sort by; ties broken by ${spec.key.join(", ")} (default: ${spec.key.join(", ")})`, {
      type: "string",
      enum: spec.columns.map((c) => c.name),
    }),
    param("orderDirection", "asc (default) or desc", { type: "string", enum: [...FORMS.orderDirection] }),
    param("limit", "At most this many rows (default: all)", { type: "string", pattern: FORMS.limit.source }),
    ...spec.columns.map((c) =>
      param(
        c.name,
        `${c.description}${c.unit ? ` (${c.unit})` : ""}. Equals; also ${c.name}_not, _in, _not_in (comma-separated, at most ${FILTER_LIMITS.maxInList})${["bigint", "int", "timestamp"].includes(c.kind) ? ", _gt, _gte, _lt, _lte" : ""}${c.kind === "text" ? ", _contains, _starts_with" : ""}`,
      ),
    ),
  ];
  return {
    summary: `${spec.connection} as ${format === "csv" ? "CSV" : "NDJSON"}`,
    description: `${spec.description} Every row GraphQL's \`${spec.connection}\` would page through (its filters, orderBy and block, unlimited by its page size of ${MAX_PAGE}), streamed as ${what}, values as GraphQL prints them.`,
    tags: ["Exports"],
    parameters,
    responses: {
      200: {
        description: what,
        content: {
          [format === "csv" ? "text/csv" : "application/x-ndjson"]: {
            schema: { type: "string", description: what },
          },
        },
      },
      400: errorContent("a parameter is malformed or names no filter of this entity"),
      422: errorContent("block is past the indexed head"),
      503: errorContent("the indexer has not indexed a block yet, or the database is unavailable"),
    },
  } as DescribeRouteOptions;
}
