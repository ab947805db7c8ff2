/**
 * One in-memory PGlite per test worker, emptied for each file that takes it. An open costs most
 * of a second (the WebAssembly instance and initdb) and the unit project runs a worker's files one
 * after another in one module graph (`isolate: false`), so the files that need an empty database
 * share one instead of opening their own: each gets it as initdb left it (every schema but the
 * system's dropped, `public` made anew, `search_path` PostgreSQL's default; RESET would
 * give PGlite's own, pg_catalog, where a CREATE TABLE lands and survives) and empties it again when done. It
 * lives in memory and ends with its worker.
 */
import { PGlite } from "@electric-sql/pglite";

let shared: Promise<PGlite> | undefined;

export type ScratchPglite = { client: PGlite; release(): Promise<void> };

/** The worker's PGlite, empty. Call `release` in the file's afterAll. */
export async function scratchPglite(): Promise<ScratchPglite> {
  shared ??= PGlite.create();
  const client = await shared;
  await empty(client);
  return { client, release: () => empty(client) };
}

async function empty(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
     WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_toast%' AND nspname NOT LIKE 'pg\\_temp%'`,
  );
  const drops = rows.map((r) => `DROP SCHEMA "${r.name.replace(/"/g, '""')}" CASCADE;`).join("\n");
  await client.exec(`${drops}\nCREATE SCHEMA public;\nSET search_path TO "$user", public;`);
}
