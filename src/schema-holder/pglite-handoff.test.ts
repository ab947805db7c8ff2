import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { handToPonder } from "./pglite-handoff.js";

// Ponder's own createPglite, as our patch leaves it (patches/ponder+0.16.10.patch): the module
// Ponder's diagnostic and database open PGlite with. Its package exports no such path, so by file.
const ponderPglite: { createPglite: (o: { dataDir: string }, how?: { lend?: boolean }) => PGlite } = await import(
  new URL("../../node_modules/ponder/dist/esm/utils/pglite.js", import.meta.url).href
);

const root = mkdtempSync(join(tmpdir(), "kusd-handoff-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a PGlite handed to Ponder", () => {
  it("is lent to the diagnostic, then taken by the database: one open; Ponder opens its own after, or for another directory", async () => {
    const dir = join(root, "pglite");
    const db = new PGlite(dir);
    await db.query("CREATE TABLE t (x int)");
    handToPonder(`${dir}/`, db); // the same directory, however written
    expect(ponderPglite.createPglite({ dataDir: dir }, { lend: true })).toBe(db);
    expect(ponderPglite.createPglite({ dataDir: dir })).toBe(db);
    await db.close();
    const elsewhere = {} as PGlite;
    handToPonder(join(root, "another"), elsewhere);
    const own = ponderPglite.createPglite({ dataDir: dir });
    expect(own).not.toBe(db);
    expect(own).not.toBe(elsewhere);
    expect((await own.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 0 }]);
    await own.close();
    expect(ponderPglite.createPglite({ dataDir: join(root, "another") })).toBe(elsewhere); // taken: the slot is empty again
  }, 60_000); // two PGlite opens, a new directory's initdb among them: 5.9 s in a CI trial under both passes' load
});
