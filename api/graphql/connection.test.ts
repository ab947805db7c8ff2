/** Keyset pages without a database: page assembly from `first + 1` rows, and the query a page asks for. */
import { eq } from "drizzle-orm";
import { bigint, integer, PgDialect, pgTable, text } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { type Keyset, keysetPage, type PageQuery, toPage } from "./connection.js";
import { DEFAULT_PAGE, decodeCursor, encodeCursor, MAX_PAGE } from "./inputs.js";

const t = pgTable("t", {
  blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
  logIndex: integer("log_index").notNull(),
  id: text("id").notNull(),
});
type Row = typeof t.$inferSelect;
const key: Keyset<Row> = {
  columns: [t.blockNumber, t.logIndex],
  types: ["bigint", "int"],
  of: (r) => [r.blockNumber, r.logIndex],
};
const rows: Row[] = [1, 2, 3, 4].map((i) => ({ blockNumber: BigInt(10 + i), logIndex: i, id: `r${i}` }));

const dialect = new PgDialect();
const render = (q: PageQuery) => ({
  where: q.where ? dialect.sqlToQuery(q.where) : undefined,
  orderBy: q.orderBy.map((o) => dialect.sqlToQuery(o).sql),
  limit: q.limit,
});

/** Runs keysetPage over a fake table: records the query and answers with the first `limit` rows. */
async function run(args: Parameters<typeof keysetPage>[0], filters: ReturnType<Parameters<typeof keysetPage>[2]> = []) {
  const seen: PageQuery[] = [];
  const page = await keysetPage(
    args,
    key,
    () => filters,
    async (q) => {
      seen.push(q);
      return rows.slice(0, q.limit);
    },
  );
  return { page, query: render(seen[0]!) };
}

describe("toPage", () => {
  it("keeps `first` rows and reports a next page when it got first + 1", () => {
    const page = toPage(rows.slice(0, 3), 2, key.of, false);
    expect(page.edges.map((e) => e.node.id)).toEqual(["r1", "r2"]);
    expect(page.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: encodeCursor([11n, 1]),
      endCursor: encodeCursor([12n, 2]),
    });
  });

  it("has no next page when fewer than first + 1 rows came back, and a previous page only after a cursor", () => {
    const page = toPage(rows.slice(0, 2), 2, key.of, true);
    expect(page.edges).toHaveLength(2);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(page.pageInfo.hasPreviousPage).toBe(true);
  });

  it("an empty page has null cursors", () => {
    expect(toPage([], 5, key.of, true).pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: null,
      endCursor: null,
    });
  });

  it("each edge's cursor is its row's key", () => {
    const page = toPage(rows, 4, key.of, false);
    expect(page.edges.map((e) => decodeCursor(e.cursor, 2))).toEqual(
      rows.map((r) => [String(r.blockNumber), String(r.logIndex)]),
    );
  });
});

describe("keysetPage", () => {
  it("asks for first + 1 rows in ascending key order with no cursor condition on the first page", async () => {
    const { page, query } = await run({ first: 2 });
    expect(query).toEqual({ where: undefined, orderBy: ['"t"."block_number" asc', '"t"."log_index" asc'], limit: 3 });
    expect(page.edges.map((e) => e.node.id)).toEqual(["r1", "r2"]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(page.pageInfo.hasPreviousPage).toBe(false);
  });

  it("uses the default page size when first is absent", async () => {
    const { query } = await run({});
    expect(query.limit).toBe(DEFAULT_PAGE + 1);
  });

  it("continues after the cursor (row comparison, typed values) after the filters, descending when asked", async () => {
    const after = encodeCursor([12n, 2]);
    const { page, query } = await run({ first: 10, after, orderDirection: "DESC" }, [eq(t.id, "x"), undefined]);
    expect(query.where).toMatchObject({
      sql: '("t"."id" = $1 and ("t"."block_number", "t"."log_index") < ($2, $3))',
      params: ["x", 12n, 2],
    });
    expect(query.orderBy).toEqual(['"t"."block_number" desc', '"t"."log_index" desc']);
    expect(page.pageInfo.hasPreviousPage).toBe(true);
    expect(page.pageInfo.hasNextPage).toBe(false);
  });

  it("binds a text key as a string", async () => {
    const textKey: Keyset<Row> = { columns: [t.id], types: ["text"], of: (r) => [r.id] };
    let where: PageQuery["where"];
    await keysetPage(
      { after: encodeCursor(["r2"]) },
      textKey,
      () => [],
      async (q) => {
        where = q.where;
        return [];
      },
    );
    expect(dialect.sqlToQuery(where!)).toMatchObject({ sql: '("t"."id") > ($1)', params: ["r2"] });
  });

  it("rejects a bad first before reading filters, and a bad cursor after them, without fetching", async () => {
    let filtersRead = 0;
    let fetched = 0;
    const go = (args: Parameters<typeof keysetPage>[0]) =>
      keysetPage(
        args,
        key,
        () => {
          filtersRead++;
          return [];
        },
        async () => {
          fetched++;
          return [];
        },
      );
    await expect(go({ first: MAX_PAGE + 1 })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", argument: "first" },
    });
    expect(filtersRead).toBe(0);
    await expect(go({ after: "not-a-cursor" })).rejects.toMatchObject({
      extensions: { code: "BAD_USER_INPUT", argument: "after" },
    });
    await expect(go({ after: encodeCursor(["1"]) })).rejects.toMatchObject({
      message: "after is not a cursor this API issued",
    });
    expect(filtersRead).toBe(2);
    expect(fetched).toBe(0);
  });
});
