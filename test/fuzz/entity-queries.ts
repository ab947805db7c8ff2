/**
 * Generated entity queries for the fuzz suite: a connection with a `where` of its own filter keys
 * (now and then a stranger), values of each column's kind (and now and then a wrong one, null,
 * or a list past the limit), AND/OR nested up to five deep (the limit is three), orderBy,
 * direction, page sizes around the bounds, forged cursors and blocks; and the same filters for
 * the exports. Mostly well-formed, so most cases reach the filter compiler, the pager and SQL.
 */
import fc from "fast-check";
import type { ColumnSpec, EntitySpec } from "../../api/graphql/query/entity.js";
import { type Op, opsOf } from "../../api/graphql/query/where.js";
import { ENTITY_SPECS } from "../../api/graphql/specs/index.js";
import { paramValue } from "./arbitraries.js";

const hex = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n }).map((h) => `0x${h}`);

/** A value of the column's kind, as GraphQL variables carry it. */
function kindValue(c: ColumnSpec): fc.Arbitrary<unknown> {
  switch (c.kind) {
    case "bigint":
      // Up to 10^30: past int8's range, within the BigInt scalar's 78 digits (its bound is fuzzed elsewhere).
      return fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String);
    case "int":
      return fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 });
    case "timestamp":
      return fc.oneof(
        fc
          .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.integer({ min: 0, max: 2 ** 40 }).map(String),
      );
    case "boolean":
      return fc.boolean();
    case "hex-address":
      return hex(40);
    case "hex-hash":
      return hex(64);
    case "enum":
      return fc.constantFrom(...(c.values ?? ["x"]));
    case "text":
      return fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom("mint", "violation", "MINTER_ROLE", "USDC", "%", "_", "\\"),
      );
  }
}

function filterOf(c: ColumnSpec, op: Op): fc.Arbitrary<[string, unknown]> {
  const key = op === "" ? c.name : `${c.name}_${op}`;
  const list = op === "in" || op === "not_in";
  const right = list
    ? fc.oneof(
        { weight: 9, arbitrary: fc.array(kindValue(c), { maxLength: 5 }) },
        { weight: 1, arbitrary: fc.array(kindValue(c), { minLength: 199, maxLength: 202 }) },
      )
    : kindValue(c);
  const value = fc.oneof(
    { weight: 40, arbitrary: right },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: paramValue() },
  );
  return value.map((v) => [key, v]);
}

const filtersOf = (spec: EntitySpec) => spec.columns.flatMap((c) => opsOf(c.kind).map((op) => filterOf(c, op)));

/** A `where` for `spec`: up to three filters (now and then a stranger key), AND/OR up to five deep. */
export const whereOf = (spec: EntitySpec): fc.Arbitrary<Record<string, unknown>> => {
  const filter = fc.oneof(
    { weight: 50, arbitrary: fc.oneof(...filtersOf(spec)) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), paramValue()) },
  );
  const { where } = fc.letrec<{ where: Record<string, unknown> }>((tie) => ({
    where: fc
      .tuple(
        fc.array(filter, { maxLength: 3 }),
        fc.option(fc.tuple(fc.constantFrom("AND", "OR"), fc.array(tie("where"), { maxLength: 2 })), {
          freq: 3,
          maxDepth: 5,
          depthIdentifier: "where",
        }),
      )
      .map(([filters, logic]) => ({ ...Object.fromEntries(filters), ...(logic ? { [logic[0]]: logic[1] } : {}) })),
  }));
  return where;
};

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** orderBy, direction, page size, cursors and block: mostly valid, now and then not. */
const pagingOf = (spec: EntitySpec) =>
  fc
    .record(
      {
        orderBy: fc.oneof(
          { weight: 9, arbitrary: fc.constantFrom(...spec.columns.map((c) => c.name)) },
          { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
        ),
        orderDirection: fc.oneof(
          { weight: 19, arbitrary: fc.constantFrom("asc", "desc", "ASC", "DESC") },
          { weight: 1, arbitrary: fc.constant("up") },
        ),
        size: fc.tuple(
          fc.constantFrom("first", "first", "first", "first", "last", "last", "last", "both"),
          fc.oneof(
            { weight: 8, arbitrary: fc.integer({ min: 1, max: 1000 }) },
            { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1001, 2 ** 31 - 1) },
          ),
        ),
        cursor: fc.tuple(
          fc.constantFrom("after", "before"),
          fc.oneof(
            fc.string({ maxLength: 30 }),
            fc
              .array(fc.oneof(fc.constantFrom(...spec.columns.map((c) => c.name)), paramValue(), fc.constant(null)), {
                maxLength: 5,
              })
              .map(b64),
          ),
        ),
        block: fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 0, max: 3_000 }).map((n) => ({ number: String(n) })) },
          { weight: 1, arbitrary: fc.bigInt({ min: -5n, max: 10n ** 20n }).map((n) => ({ number: String(n) })) },
          { weight: 1, arbitrary: hex(64).map((hash) => ({ hash })) },
          {
            weight: 1,
            arbitrary: fc.constantFrom({}, { number: "1", hash: `0x${"00".repeat(32)}` }, { hash: "0x12" }),
          },
        ),
      },
      { requiredKeys: ["orderBy", "orderDirection", "size"] },
    )
    .chain((p) =>
      // A cursor or a block in one case of five each: most cases page from the start, at the head.
      fc.tuple(fc.constant(p), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })).map(([q, c, b]) => ({
        ...q,
        cursor: c === 0 ? q.cursor : undefined,
        block: b === 0 ? q.block : undefined,
      })),
    );

/** A GraphQL request for one connection, every argument a variable (as clients send them). */
export const entityQuery = (): fc.Arbitrary<{ label: string; body: string }> =>
  fc
    .constantFrom(...ENTITY_SPECS)
    .chain((spec) => fc.tuple(fc.constant(spec), fc.option(whereOf(spec), { freq: 8 }), pagingOf(spec)))
    .map(([spec, where, p]) => {
      const t = spec.type;
      const query = `query($w: ${t}_filter, $o: ${t}_orderBy, $d: OrderDirection, $f: Int, $l: Int, $a: String, $b: String, $k: Block_height) {
        ${spec.connection}(where: $w, orderBy: $o, orderDirection: $d, first: $f, last: $l, after: $a, before: $b, block: $k) {
          totalCount nodes { __typename } pageInfo { hasNextPage hasPreviousPage startCursor } } }`;
      const [which, n] = p.size;
      const variables = {
        w: where,
        o: p.orderBy,
        d: p.orderDirection,
        f: which === "last" ? undefined : n,
        l: which === "first" ? undefined : n,
        a: p.cursor?.[0] === "after" ? p.cursor[1] : undefined,
        b: p.cursor?.[0] === "before" ? p.cursor[1] : undefined,
        k: p.block,
      };
      const body = JSON.stringify({ query, variables });
      return { label: `POST /graphql ${spec.connection} ${JSON.stringify(variables).slice(0, 400)}`, body };
    });

/** An export URL with a generated where (JSON) and filter parameters, at most 50 rows. */
export const exportUrl = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...ENTITY_SPECS), fc.constantFrom("csv", "ndjson"))
    .chain(([spec, format]) =>
      fc.tuple(
        fc.constant(`/api/export/${spec.connection}.${format}`),
        fc.option(whereOf(spec), { freq: 2 }),
        fc.array(
          fc.oneof(...filtersOf(spec)).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : String(v)] as const),
          {
            maxLength: 2,
          },
        ),
        fc.array(
          fc.tuple(
            fc.constantFrom("fromBlock", "toBlock", "block", "orderBy", "orderDirection", "limit"),
            paramValue(),
          ),
          {
            maxLength: 2,
          },
        ),
      ),
    )
    .map(([path, where, filters, params]) => {
      const q = new URLSearchParams();
      if (where) q.set("where", JSON.stringify(where));
      for (const [k, v] of [...filters, ...params]) q.append(k, v);
      q.set("limit", "50");
      return `${path}?${q}`;
    });
