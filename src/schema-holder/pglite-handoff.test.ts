import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { handToPonder } from "./pglite-handoff.js";

// Ponder's own createPglite, as our patch leaves it (pglite-one-open, patches/README.md): the
// module Ponder's diagnostic and database open PGlite with. Its package exports no such path, so by file.
type Loan = { query: PGlite["query"]; close: () => Promise<void> };
const ponderPglite: {
  createPglite: ((o: { dataDir: string }) => PGlite) & ((o: { dataDir: string }, how: { lend: true }) => Loan);
} = await import(new URL("../../node_modules/ponder/dist/esm/utils/pglite.js", import.meta.url).href);

const root = mkdtempSync(join(tmpdir(), "kusd-handoff-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a PGlite handed to Ponder", () => {
  it("is lent to the diagnostic, then taken by the database: one open; Ponder opens its own after, or for another directory", async () => {
    const dir = join(root, "pglite");
    const db = new PGlite(dir);
    await db.query("CREATE TABLE t (x int)");
    handToPonder(`${dir}/`, db); // the same directory, however written
    // The diagnostic's loan asks the instance handed over, and its close leaves it open.
    const loan = ponderPglite.createPglite({ dataDir: dir }, { lend: true });
    expect((await loan.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 0 }]);
    await loan.close();
    expect(db.closed).toBe(false);
    expect(ponderPglite.createPglite({ dataDir: dir }) === db, "the database takes the instance handed over").toBe(
      true,
    );
    await db.close();
    // Nothing handed over for this directory (another one is): a loan opens it and hands it on to
    // the database, as on a first start.
    const elsewhere = {} as PGlite;
    handToPonder(join(root, "another"), elsewhere);
    const first = ponderPglite.createPglite({ dataDir: dir }, { lend: true });
    expect((await first.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 0 }]);
    await first.close();
    const own = ponderPglite.createPglite({ dataDir: dir });
    expect(own).not.toBe(db);
    expect(own).not.toBe(elsewhere);
    expect(own.closed).toBe(false);
    expect((await own.query("SELECT count(*)::int AS n FROM t")).rows).toEqual([{ n: 0 }]);
    await own.close();
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("kusd.pglite")], "taken: nothing left").toBe(undefined);
  }, 60_000); // two PGlite opens, a new directory's initdb among them: 5.9 s in a CI trial under both passes' load
});
