/** The filter compiler without a database: the SQL each operator makes, value parsing by kind, and its limits. */
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { psmSwapSpec, vaultEventSpec } from "../specs/index.js";
import type { QueryInputError } from "./query-error.js";
import { compileWhere, FILTER_LIMITS, opsOf, parseKey } from "./where.js";

const dialect = new PgDialect();
const swaps = psmSwapSpec.source(null);
const render = (where: unknown, spec = psmSwapSpec, source = swaps) => {
  const s = compileWhere(spec, source, where);
  return s ? dialect.sqlToQuery(s) : undefined;
};
const refusal = (where: unknown) => {
  try {
    render(where);
  } catch (e) {
    return e as QueryInputError;
  }
  throw new Error("accepted");
};

describe("compileWhere", () => {
  it("no filter is no condition", () => {
    expect(render(undefined)).toBeUndefined();
    expect(render(null)).toBeUndefined();
    expect(render({})).toBeUndefined();
  });

  it("equality, comparisons and lists on a bigint column bind numeric parameters (past int8's range)", () => {
    expect(render({ kusdAmount_gte: 10n ** 24n, kusdAmount_lt: "5", usdcAmount_in: ["1", 2n, 3] })).toMatchObject({
      sql: '("psm_swap"."kusd_amount" >= cast($1 as numeric) and "psm_swap"."kusd_amount" < cast($2 as numeric) and "psm_swap"."usdc_amount" in (cast($3 as numeric), cast($4 as numeric), cast($5 as numeric)))',
      params: ["1000000000000000000000000", "5", "1", "2", "3"],
    });
  });

  it("addresses and hashes are lowercased; enums and text are bound as given", () => {
    expect(render({ user: USER_MIXED, txHash_not: `0x${"AB".repeat(32)}`, direction: "redeem" })).toMatchObject({
      sql: '("psm_swap"."user" = $1 and "psm_swap"."tx_hash" <> $2 and "psm_swap"."direction" = $3)',
      params: [USER_MIXED.toLowerCase(), `0x${"ab".repeat(32)}`, "redeem"],
    });
  });

  it("timestamps take ISO 8601 or unix seconds", () => {
    expect(render({ timestamp_gte: "2026-05-14T00:00:00Z", timestamp_lte: 1_780_000_000 })?.params).toEqual([
      "1778716800",
      "1780000000",
    ]);
  });

  it("contains and starts_with escape LIKE's wildcards", () => {
    expect(render({ id_contains: "50%_x", id_starts_with: "0x\\" })).toMatchObject({
      sql: '("psm_swap"."id" like $1 and "psm_swap"."id" like $2)',
      params: ["%50\\%\\_x%", "0x\\\\%"],
    });
  });

  it("AND and OR nest; an empty OR matches nothing, an empty AND everything", () => {
    expect(render({ OR: [{ user: USERS[0] }, { AND: [{ feeBps: 1 }, { feeBps_not: 2 }] }], AND: [] })).toMatchObject({
      sql: '(("psm_swap"."user" = $1 or ("psm_swap"."fee_bps" = cast($2 as integer) and "psm_swap"."fee_bps" <> cast($3 as integer))) and true)',
      params: [USERS[0], 1, 2],
    });
    expect(render({ OR: [] })?.sql).toBe("false");
  });

  it("an empty _in matches nothing and an empty _not_in everything; comma-separated text is a list", () => {
    expect(render({ user_in: [] })?.sql).toBe("false");
    expect(render({ user_not_in: [] })?.sql).toBe("true");
    expect(render({ psmKey_in: "psmMint,psmRedeemReserve" })?.params).toEqual(["psmMint", "psmRedeemReserve"]);
  });

  it("null asks for null (field) or a value (field_not)", () => {
    expect(render({ sender: null, assets_not: null }, vaultEventSpec, vaultEventSpec.source(null))?.sql).toBe(
      '("vault_event"."sender" is null and "vault_event"."assets" is not null)',
    );
    expect(refusal({ assets_gt: null }).details.argument).toBe("where.assets_gt");
  });

  it("names the argument of a value its column refuses", () => {
    for (const [where, argument] of [
      [{ user: "0x123" }, "where.user"],
      [{ kusdAmount_gt: "1.5" }, "where.kusdAmount_gt"],
      [{ feeBps: 2 ** 31 }, "where.feeBps"],
      [{ direction: "sideways" }, "where.direction"],
      [{ psmKey_in: ["psmMint", "nope"] }, "where.psmKey_in[1]"],
      [{ timestamp_gt: "yesterday" }, "where.timestamp_gt"],
      [{ OR: [{}, { txHash: "0x12" }] }, "where.OR[1].txHash"],
      [{ OR: {} }, "where.OR"],
      [{ nope: 1 }, "where.nope"],
      [{ direction_gt: "mint" }, "where.direction_gt"],
      [[], "where"],
    ] as const)
      expect(refusal(where)).toMatchObject({ code: "invalid_argument", details: { argument } });
  });

  it("refuses AND/OR nested past the limit and _in lists past the limit, naming the limit", () => {
    let deep: Record<string, unknown> = { feeBps: 1 };
    for (let i = 0; i <= FILTER_LIMITS.maxNesting; i++) deep = { OR: [deep] };
    expect(refusal(deep)).toMatchObject({ code: "limit_exceeded", details: { limit: FILTER_LIMITS.maxNesting } });
    const ok = { OR: [{ AND: [{ OR: [{ feeBps: 1 }] }] }] };
    expect(render(ok)).toBeDefined();
    const long = Array.from({ length: FILTER_LIMITS.maxInList + 1 }, () => USERS[0]);
    expect(refusal({ user_in: long })).toMatchObject({
      code: "limit_exceeded",
      details: { argument: "where.user_in", limit: FILTER_LIMITS.maxInList },
    });
    expect(render({ user_in: long.slice(1) })).toBeDefined();
  });
});

describe("filter keys", () => {
  it("each kind takes its operators", () => {
    expect(opsOf("bigint")).toEqual(["", "not", "in", "not_in", "gt", "gte", "lt", "lte"]);
    expect(opsOf("text")).toEqual(["", "not", "in", "not_in", "contains", "starts_with"]);
    expect(opsOf("hex-address")).toEqual(["", "not", "in", "not_in"]);
    expect(opsOf("boolean")).toEqual(["", "not"]);
  });

  it("parses field and operator, and refuses an operator the column does not take", () => {
    expect(parseKey(psmSwapSpec, "kusdAmount_not_in")).toMatchObject({ column: { name: "kusdAmount" }, op: "not_in" });
    expect(parseKey(psmSwapSpec, "id_starts_with")).toMatchObject({ column: { name: "id" }, op: "starts_with" });
    expect(parseKey(psmSwapSpec, "user_contains")).toBeNull();
    expect(parseKey(psmSwapSpec, "user_")).toBeNull();
    expect(parseKey(psmSwapSpec, "AND")).toBeNull();
  });
});

const USER_MIXED = "0xaBcDeF0000000000000000000000000000000004";
const USERS = ["0x1111111111111111111111111111111111111111"];
