/**
 * The filter compiler, the one place a `where` becomes SQL: The Graph's and Ponder's conventions
 * (`field`, `field_not`, `field_in`, `field_not_in`, `field_gt/_gte/_lt/_lte`, `field_contains`,
 * `field_starts_with`, `AND: [...]`, `OR: [...]`), over any entity spec and row source. GraphQL
 * hands it the coerced input object; the exports hand it JSON and query parameters (strings,
 * lists as comma-separated text), so every value is parsed by its column's kind here.
 */
import { and, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { type ColumnKind, type ColumnSpec, columnOf, columnSpec, type EntitySpec, type RowSource } from "./entity.js";
import { invalid, overLimit } from "./query-error.js";
import { bind, parseValue, type Value } from "./values.js";

/** How far AND/OR may nest, and how many values one `_in` list may hold. */
export const FILTER_LIMITS = { maxNesting: 3, maxInList: 200 } as const;

export type Op = "" | "not" | "in" | "not_in" | "gt" | "gte" | "lt" | "lte" | "contains" | "starts_with";

const EQUALITY: readonly Op[] = ["", "not", "in", "not_in"];
const NUMERIC: readonly Op[] = [...EQUALITY, "gt", "gte", "lt", "lte"];

/** The operators a column kind takes (the suffixes of its filter fields). */
export function opsOf(kind: ColumnKind): readonly Op[] {
  switch (kind) {
    case "bigint":
    case "int":
    case "timestamp":
      return NUMERIC;
    case "text":
      return [...EQUALITY, "contains", "starts_with"];
    case "boolean":
      return ["", "not"];
    default:
      return EQUALITY;
  }
}

/** `field` or `field_op` for a column and an operator. */
export const filterKey = (name: string, op: Op) => (op === "" ? name : `${name}_${op}`);

const KEY = /^([A-Za-z][A-Za-z0-9]*)(?:_(not_in|not|in|gte|gt|lte|lt|contains|starts_with))?$/;

/** The column and operator a filter key names, or null. */
export function parseKey(spec: EntitySpec, key: string): { column: ColumnSpec; op: Op } | null {
  const m = KEY.exec(key);
  const column = m ? columnSpec(spec, m[1]!) : undefined;
  const op = (m?.[2] ?? "") as Op;
  return column && opsOf(column.kind).includes(op) ? { column, op } : null;
}

export type WhereInput = { [key: string]: unknown };

/**
 * The SQL condition of `where` (undefined: no condition). `argument` names it in errors
 * (`where.user_in`); an empty argument names each filter alone (query parameters: `user_in`).
 */
export function compileWhere(spec: EntitySpec, source: RowSource, where: unknown, argument = "where"): SQL | undefined {
  return compile(spec, source, where, argument, 0);
}

function compile(spec: EntitySpec, source: RowSource, where: unknown, path: string, nesting: number): SQL | undefined {
  if (where === null || where === undefined) return undefined;
  if (typeof where !== "object" || Array.isArray(where))
    throw invalid(path || "where", `${path || "where"} must be an object of filters`);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const parts: SQL[] = [];
  for (const [key, raw] of Object.entries(where)) {
    if (raw === undefined) continue;
    if (key === "AND" || key === "OR") {
      if (raw === null) continue;
      if (!Array.isArray(raw)) throw invalid(at(key), `${at(key)} must be a list of filters`);
      if (nesting >= FILTER_LIMITS.maxNesting)
        throw overLimit(
          at(key),
          `AND and OR nest at most ${FILTER_LIMITS.maxNesting} deep (${at(key)})`,
          FILTER_LIMITS.maxNesting,
        );
      const subs = raw.map((w, i) => compile(spec, source, w, `${at(key)}[${i}]`, nesting + 1) ?? sql`true`);
      // An empty AND holds for every row, an empty OR for none.
      parts.push(key === "AND" ? (and(...subs) ?? sql`true`) : (or(...subs) ?? sql`false`));
      continue;
    }
    parts.push(condition(spec, source, key, raw, at(key)));
  }
  return and(...parts);
}

function condition(spec: EntitySpec, source: RowSource, key: string, raw: unknown, argument: string): SQL {
  const parsed = parseKey(spec, key);
  if (!parsed) throw invalid(argument, `${key} is not a filter of ${spec.type} (${spec.connection})`);
  const { column: col, op } = parsed;
  const c = columnOf(source, col.name);
  if (raw === null) {
    // As in Ponder: `field: null` asks for null, `field_not: null` for a value.
    if (op === "") return isNull(c);
    if (op === "not") return isNotNull(c);
    throw invalid(argument, `${argument} cannot be null`);
  }
  if (op === "in" || op === "not_in") {
    const values = listOf(raw, argument).map((v, i) => bind(col, parseValue(col, v, `${argument}[${i}]`)));
    if (values.length === 0) return op === "in" ? sql`false` : sql`true`;
    const list = sql.join(values, sql`, `);
    return op === "in" ? sql`${c} in (${list})` : sql`${c} not in (${list})`;
  }
  const value: Value = parseValue(col, raw, argument);
  switch (op) {
    case "":
      return sql`${c} = ${bind(col, value)}`;
    case "not":
      return sql`${c} <> ${bind(col, value)}`;
    case "gt":
      return sql`${c} > ${bind(col, value)}`;
    case "gte":
      return sql`${c} >= ${bind(col, value)}`;
    case "lt":
      return sql`${c} < ${bind(col, value)}`;
    case "lte":
      return sql`${c} <= ${bind(col, value)}`;
    case "contains":
      return sql`${c} like ${`%${likeEscape(String(value))}%`}`;
    case "starts_with":
      return sql`${c} like ${`${likeEscape(String(value))}%`}`;
  }
}

/** A list from GraphQL or JSON, or comma-separated text from a query parameter. */
function listOf(raw: unknown, argument: string): unknown[] {
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? (raw === "" ? [] : raw.split(",")) : null;
  if (!list) throw invalid(argument, `${argument} must be a list`);
  if (list.length > FILTER_LIMITS.maxInList)
    throw overLimit(
      argument,
      `${argument} lists ${list.length} values; at most ${FILTER_LIMITS.maxInList}`,
      FILTER_LIMITS.maxInList,
    );
  return list;
}

/** LIKE's wildcards taken literally: `field_contains: "50%"` looks for "50%". */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, "\\$&");
