/** Orderings and cursors without a database: the sort terms, the cursor round trip, and the row comparison. */
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { psmSwapSpec, vaultEventSpec } from "../specs/index.js";
import { beyond, cursorOf, decodeCursor, orderingOf, orderTerms } from "./order.js";

const dialect = new PgDialect();
const swaps = psmSwapSpec.source(null);
const events = vaultEventSpec.source(null);
const sqlOf = (s: Parameters<PgDialect["sqlToQuery"]>[0]) => dialect.sqlToQuery(s);

describe("orderingOf", () => {
  it("defaults to the entity's key, ascending", () => {
    const o = orderingOf(psmSwapSpec);
    expect([o.orderBy, o.direction, o.keys.map((k) => k.name)]).toEqual([
      "blockNumber",
      "asc",
      ["blockNumber", "logIndex", "id"],
    ]);
  });

  it("puts orderBy first and breaks ties by the rest of the key; takes asc/desc in either case", () => {
    const o = orderingOf(psmSwapSpec, "kusdAmount", "DESC");
    expect(o.keys.map((k) => k.name)).toEqual(["kusdAmount", "blockNumber", "logIndex", "id"]);
    expect(o.direction).toBe("desc");
    expect(orderingOf(psmSwapSpec, "logIndex", "asc").keys.map((k) => k.name)).toEqual([
      "logIndex",
      "blockNumber",
      "id",
    ]);
  });

  it("refuses a field the entity does not have and a direction that is neither", () => {
    expect(() => orderingOf(psmSwapSpec, "nope")).toThrow(/orderBy must be a field of PsmSwap/);
    expect(() => orderingOf(psmSwapSpec, "id", "up")).toThrow(/asc or desc/);
  });

  it("sorts a nullable column on (is null, value), reversed as a whole when read backwards", () => {
    const o = orderingOf(vaultEventSpec, "assets", "asc");
    expect(orderTerms(o, events).map((t) => sqlOf(t).sql)).toEqual([
      '("vault_event"."assets" is null) asc',
      'coalesce("vault_event"."assets", cast(0 as numeric)) asc',
      '"vault_event"."block_number" asc',
      '"vault_event"."log_index" asc',
      '"vault_event"."id" asc',
    ]);
    expect(orderTerms(o, events, true).every((t) => sqlOf(t).sql.endsWith(" desc"))).toBe(true);
  });
});

describe("cursors", () => {
  const o = orderingOf(psmSwapSpec, "kusdAmount", "desc");
  const row = { kusdAmount: 10n ** 24n, blockNumber: 7n, logIndex: 1, id: "0xab-1" };

  it("round-trip a row's position, big integers exact", () => {
    expect(decodeCursor(o, cursorOf(o, row), "after")).toEqual([10n ** 24n, 7n, 1, "0xab-1"]);
  });

  it("refuse a cursor of another orderBy, of another shape, or not ours", () => {
    const other = orderingOf(psmSwapSpec, "usdcAmount");
    const foreign = cursorOf(other, { usdcAmount: 1n, blockNumber: 7n, logIndex: 1, id: "x" });
    expect(() => decodeCursor(o, foreign, "after")).toThrow("after was issued for orderBy usdcAmount, not kusdAmount");
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    for (const bad of [
      "nope",
      b64(["kusdAmount", "1", "2"]),
      b64(["kusdAmount", "1.5", "7", "1", "x"]),
      b64(["kusdAmount", null, "7", "1", "x"]),
      b64({ kusdAmount: 1 }),
    ])
      expect(() => decodeCursor(o, bad, "before"), bad).toThrow("before is not a cursor this API issued");
  });

  it("a null in a nullable column survives the round trip", () => {
    const n = orderingOf(vaultEventSpec, "sender");
    const c = cursorOf(n, { sender: null, blockNumber: 3n, logIndex: 5, id: "ve-1" });
    expect(decodeCursor(n, c, "after")).toEqual([null, 3n, 5, "ve-1"]);
  });
});

describe("beyond", () => {
  it("is one row comparison, its sense set by side and direction", () => {
    const asc = orderingOf(psmSwapSpec);
    const at = [7n, 1, "x"];
    expect(sqlOf(beyond(asc, swaps, at, "after"))).toMatchObject({
      sql: '("psm_swap"."block_number", "psm_swap"."log_index", "psm_swap"."id") > (cast($1 as numeric), cast($2 as integer), $3)',
      params: ["7", 1, "x"],
    });
    expect(sqlOf(beyond(asc, swaps, at, "before", true)).sql).toContain(") <= (");
    const desc = orderingOf(psmSwapSpec, undefined, "desc");
    expect(sqlOf(beyond(desc, swaps, at, "after")).sql).toContain(") < (");
  });

  it("compares a nullable key as (is null, coalesced value)", () => {
    const o = orderingOf(vaultEventSpec, "sender");
    expect(sqlOf(beyond(o, events, [null, 3n, 5, "ve-1"], "after"))).toMatchObject({
      sql: '(("vault_event"."sender" is null), coalesce("vault_event"."sender", \'\'), "vault_event"."block_number", "vault_event"."log_index", "vault_event"."id") > ($1, \'\', cast($2 as numeric), cast($3 as integer), $4)',
      params: [true, "3", 5, "ve-1"],
    });
  });
});
