/**
 * The PGlite the config opened, handed to Ponder instead of closed. Opening a PGlite directory
 * starts its WASM and Postgres's own recovery, about a second each time on a 2-core machine, and a
 * restart opened it three times: the schema holder's check (claim-schema.ts), Ponder's connection
 * diagnostic, then Ponder's database. With the instance handed over (our Ponder patch,
 * utils/pglite.js and build/index.js), the diagnostic asks the open one and the database keeps it:
 * one open. On a first start, when there is no directory to check yet, the diagnostic's own
 * instance is handed on the same way. Ponder takes an instance only for its own directory;
 * otherwise it opens one, as before.
 */
import { resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

const SLOT = Symbol.for("kusd.pglite");

type Handed = { dataDir: string; db: PGlite };

/** Leaves `db`, open on `dataDir`, for Ponder's next open of that directory. */
export function handToPonder(dataDir: string, db: PGlite): void {
  (globalThis as Record<symbol, Handed | undefined>)[SLOT] = { dataDir: resolve(dataDir), db };
}
