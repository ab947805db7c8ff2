/**
 * drizzle-is-cache (patches/README.md): drizzle's `is(value, type)` keeps its answer per prototype.
 * Ponder's sync asks it for every parameter of every insert it builds (10 s of a 43 s PostgreSQL
 * backfill's main thread walked prototype chains). Its answers must be drizzle's own algorithm's,
 * for every entity and class.
 */
import * as d from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";

const entityKind = Symbol.for("drizzle:entityKind");

/** drizzle-orm 0.41.0's `is`, as published (entity.js). */
function published(value: unknown, type: { prototype: object; name?: string }): boolean {
  if (!value || typeof value !== "object") return false;
  if (value instanceof (type as never)) return true;
  if (!Object.hasOwn(type, entityKind)) throw new Error(`Class "${type.name}" doesn't look like a Drizzle entity`);
  let cls = Object.getPrototypeOf(value).constructor;
  while (cls) {
    if (entityKind in cls && cls[entityKind] === (type as never)[entityKind]) return true;
    cls = Object.getPrototypeOf(cls);
  }
  return false;
}

const table = pg.pgTable("t", {
  id: pg.text("id").primaryKey(),
  amount: pg.numeric("amount", { precision: 78, scale: 0 }),
  at: pg.bigint("at", { mode: "bigint" }),
});
const values: unknown[] = [
  d.sql`select ${1}`,
  d.sql.raw("x"),
  d.sql`a`.as("b"),
  new d.Param(1),
  new d.StringChunk("a"),
  new d.Placeholder("p"),
  table,
  table.id,
  table.amount,
  table.at,
  pg.pgView("v").as((qb) => qb.select().from(table)),
  {},
  [],
  new Date(),
  1n,
  "s",
  null,
  undefined,
];
const types = [
  d.SQL,
  d.SQL.Aliased,
  d.Param,
  d.StringChunk,
  d.Placeholder,
  d.Table,
  d.Column,
  d.View,
  d.Subquery,
  pg.PgTable,
  pg.PgColumn,
  pg.PgText,
  pg.PgNumeric,
  pg.PgView,
];

describe("drizzle's is(), kept per prototype", () => {
  it("answers as the published algorithm, first and every later time", () => {
    for (let round = 0; round < 3; round++)
      for (const value of values)
        for (const type of types)
          expect(d.is(value, type), `${String(value)} is ${type.name}`).toBe(published(value, type));
  });

  it("still refuses a class that is not a drizzle entity", () => {
    class NotAnEntity {}
    expect(() => d.is(d.sql`x`, NotAnEntity as never)).toThrow(/doesn't look like a Drizzle entity/);
    expect(() => d.is(d.sql`x`, NotAnEntity as never)).toThrow(/doesn't look like a Drizzle entity/);
  });

  it("walks a value's prototype chain once per prototype, not on every call", () => {
    // A class whose entity kind is read through a getter counts the walks of its chain.
    let reads = 0;
    // biome-ignore lint/complexity/noStaticOnlyClass: drizzle reads the entity kind off the value's class chain
    class Counted {
      static get [entityKind]() {
        reads++;
        return "KusdCounted";
      }
    }
    class Child extends Counted {}
    const value = new Child();
    expect(d.is(value, d.SQL)).toBe(false);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) d.is(new Child(), d.SQL);
    expect(reads, "no walk after the first call for this prototype").toBe(afterFirst);
  });
});
