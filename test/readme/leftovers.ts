/**
 * What the docs' commands leave behind, compared before and after the check: a port still
 * listening, a kusd-* folder in the temp directory, a database schema in the PostgreSQL the docs
 * use. Every example must clean up after itself; the check says which one did not.
 */
import { readdirSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

/** The ports the docs' servers and examples use. */
export const DOC_PORTS = [8545, 8546, 8547, 9999, 42069, 42070];
/** Where the docs' PostgreSQL examples point. */
export const DOC_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
/**
 * Kept across runs on purpose: the operator store (signed statements are the operator's record)
 * and Ponder's RPC cache. The check removes them only if they were not there before it ran.
 */
export const PERSISTENT_SCHEMAS = ["kusd_operator", "ponder_sync"];

export type Snapshot = { ports: number[]; temp: string[]; schemas: string[] | null };

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

async function schemas(): Promise<string[] | null> {
  const sql = postgres(DOC_DATABASE_URL, { onnotice: () => {}, max: 1, connect_timeout: 5 });
  try {
    const rows = await sql<
      { nspname: string }[]
    >`SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'`;
    return rows.map((r) => r.nspname).sort();
  } catch {
    return null; // no PostgreSQL here: nothing to compare
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
  }
}

/**
 * What is there now. `tempDir` is the temp directory the docs' commands were given (TMPDIR): a
 * folder of the check's own, so a test running beside it on the same machine is not counted.
 */
export async function snapshot(tempDir: string = tmpdir()): Promise<Snapshot> {
  const open = await Promise.all(DOC_PORTS.map(listening));
  return {
    ports: DOC_PORTS.filter((_, i) => open[i]),
    temp: readdirSync(tempDir)
      .filter((f) => f.startsWith("kusd-"))
      .map((f) => join(tempDir, f))
      .sort(),
    schemas: await schemas(),
  };
}

/** What `after` has that `before` had not, as lines; removes the persistent schemas the run created. */
export async function leftovers(before: Snapshot, after: Snapshot): Promise<string[]> {
  const problems: string[] = [];
  for (const port of after.ports) if (!before.ports.includes(port)) problems.push(`port ${port} is still listening`);
  for (const f of after.temp) if (!before.temp.includes(f)) problems.push(`${f} was left behind`);
  if (before.schemas && after.schemas) {
    const added = after.schemas.filter((s) => !before.schemas!.includes(s));
    const persistent = added.filter((s) => PERSISTENT_SCHEMAS.includes(s));
    for (const s of added.filter((x) => !PERSISTENT_SCHEMAS.includes(x)))
      problems.push(`schema ${s} was left in ${DOC_DATABASE_URL}`);
    if (persistent.length) {
      const sql = postgres(DOC_DATABASE_URL, { onnotice: () => {}, max: 1 });
      for (const s of persistent) await sql.unsafe(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await sql.end({ timeout: 5 });
    }
  }
  return problems;
}
