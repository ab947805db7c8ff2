/**
 * A restart after a crash without the wait on a dead predecessor's lock. Ponder marks the schema
 * it writes as locked and refreshes a heartbeat every 10 s; a new `ponder start` on that schema
 * waits until the heartbeat is 25 s old, so a process killed by the OOM killer or a lost machine
 * costs half a minute of downtime before crash recovery even starts. A lock that knows its
 * holder instead: on PostgreSQL a session advisory lock per schema, taken by the process that
 * runs it (the server drops it with the dead process's connection); on PGlite, a note of the
 * holder's pid beside the data. When the holder is shown dead, the stale mark is cleared the
 * way Ponder clears it at a clean shutdown (`is_locked` 0), and Ponder recovers at once. A live
 * holder is never touched: Ponder waits and refuses as before.
 */
import { existsSync } from "node:fs";
import postgres from "postgres";
import { holderDead, holdWithThisProcess, readHolder } from "./holder-file.js";
import { handToPonder } from "./pglite-handoff.js";

/** A parameter the checks bind: schema names, chain ids, block numbers and hashes. */
export type SqlParam = string | number | boolean | null;
export type Query = (text: string, params: SqlParam[]) => Promise<Record<string, unknown>[]>;

/** Clears a dead holder's lock mark on `schema`; the heartbeat it had, or null when none was set. */
async function clearDeadMark(query: Query, schema: string): Promise<number | null> {
  const [table] = await query("SELECT to_regclass(format('%I._ponder_meta', $1::text)) AS t", [schema]);
  if (!table?.t) return null; // a schema Ponder has not made yet
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  const rows = await query(
    `UPDATE ${quoted}."_ponder_meta" SET value = jsonb_set(value, '{is_locked}', to_jsonb(0))
     WHERE key = 'app' AND (value->>'is_locked')::int = 1 RETURNING (value->>'heartbeat_at')::bigint AS heartbeat_at`,
    [],
  );
  return rows[0] ? Number(rows[0].heartbeat_at) : null;
}

// One advisory lock key space for these locks ('kusd'), the schema's hash the second key.
const LOCK_SPACE = 0x6b757364;
const RETAKE_MS = 2_000;

/** Work on the database before Ponder opens it (PGlite: unless a live holder has it open). */
export type BeforePonder = (query: Query) => Promise<void>;

async function claimOnPostgres(
  url: string,
  schema: string,
  log: (m: string) => void,
  before?: BeforePonder,
): Promise<void> {
  let retaking = false;
  const sql = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
    connection: { application_name: `${schema}_holder` },
    // The lock lives in the session: a dropped connection (a database restart) loses it, so take it again.
    onclose: () => {
      if (!retaking) retake();
    },
  });
  const take = async () =>
    (await sql<{ held: boolean }[]>`SELECT pg_try_advisory_lock(${LOCK_SPACE}, hashtext(${schema})) AS held`)[0]!.held;
  const retake = () => {
    retaking = true;
    const timer = setTimeout(async () => {
      try {
        if (!(await take()))
          log(`schema ${schema}: another process took its lock while this one's connection was down`);
        retaking = false;
      } catch {
        retake(); // the database is still away
      }
    }, RETAKE_MS);
    timer.unref();
  };
  const query: Query = (text, params) => sql.unsafe(text, params);
  await before?.(query);
  if (!(await take())) {
    log(`schema ${schema} is held by a running process: Ponder waits for it, as before`);
    return;
  }
  const heartbeat = await clearDeadMark(query, schema);
  if (heartbeat !== null)
    log(`schema ${schema}: its holder is gone (last heartbeat ${new Date(heartbeat).toISOString()}); lock released`);
}

async function claimOnPglite(
  dir: string,
  schema: string,
  log: (m: string) => void,
  before?: BeforePonder,
): Promise<void> {
  const holder = readHolder(dir);
  if (holder && !holderDead(holder)) {
    log(`schema ${schema}: held by process ${holder.pid} on ${holder.host}: Ponder waits for it, as before`);
    return;
  }
  const releases = holder !== null && holder.schema === schema;
  if ((releases || before) && existsSync(dir)) {
    // Ponder opens the directory after the config is built: it takes this instance, open (pglite-handoff.ts).
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(dir);
    const query: Query = async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows;
    try {
      await before?.(query);
      const heartbeat = releases ? await clearDeadMark(query, schema) : null;
      if (heartbeat !== null)
        log(
          `schema ${schema}: its holder (process ${holder?.pid}) is gone (last heartbeat ${new Date(heartbeat).toISOString()}); lock released`,
        );
    } catch (e) {
      await db.close();
      throw e;
    }
    handToPonder(dir, db);
  }
  holdWithThisProcess(dir, schema);
}

let claimed = false;

/**
 * Holds `schema` for this process, first releasing the lock a dead holder left on it; `before`
 * runs in the same session, before Ponder opens the database (the sync cache's check).
 */
export async function claimSchema(o: {
  schema: string;
  databaseUrl?: string;
  pgliteDir: string;
  log?: (message: string) => void;
  before?: BeforePonder;
}): Promise<void> {
  if (claimed) return; // the config evaluated twice in one process holds it already
  claimed = true;
  const log = o.log ?? ((m: string) => console.warn(`[schema-holder] ${m}`));
  try {
    if (o.databaseUrl) await claimOnPostgres(o.databaseUrl, o.schema, log, o.before);
    else if (o.pgliteDir !== "memory://") await claimOnPglite(o.pgliteDir, o.schema, log, o.before);
  } catch (e) {
    // Never a reason not to start: Ponder's own lock still guards the schema, at its own pace.
    log(`schema ${o.schema}: could not check its holder (${(e as Error).message}); Ponder's own lock applies`);
  }
}
