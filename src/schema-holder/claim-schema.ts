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

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

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

async function claimOnPostgres(url: string, schema: string, log: (m: string) => void): Promise<void> {
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
  if (!(await take())) {
    log(`schema ${schema} is held by a running process: Ponder waits for it, as before`);
    return;
  }
  const heartbeat = await clearDeadMark((text, params) => sql.unsafe(text, params as never[]), schema);
  if (heartbeat !== null)
    log(`schema ${schema}: its holder is gone (last heartbeat ${new Date(heartbeat).toISOString()}); lock released`);
}

async function claimOnPglite(dir: string, schema: string, log: (m: string) => void): Promise<void> {
  const holder = readHolder(dir);
  if (holder && !holderDead(holder)) {
    log(`schema ${schema}: held by process ${holder.pid} on ${holder.host}: Ponder waits for it, as before`);
    return;
  }
  if (holder && holder.schema === schema && existsSync(dir)) {
    // Ponder opens the directory after the config is built: ours is closed by then.
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(dir);
    try {
      const heartbeat = await clearDeadMark(
        async (text, params) => (await db.query(text, params)).rows as never,
        schema,
      );
      if (heartbeat !== null)
        log(
          `schema ${schema}: its holder (process ${holder.pid}) is gone (last heartbeat ${new Date(heartbeat).toISOString()}); lock released`,
        );
    } finally {
      await db.close();
    }
  }
  holdWithThisProcess(dir, schema);
}

let claimed = false;

/** Holds `schema` for this process, first releasing the lock a dead holder left on it. */
export async function claimSchema(o: {
  schema: string;
  databaseUrl?: string;
  pgliteDir: string;
  log?: (message: string) => void;
}): Promise<void> {
  if (claimed) return; // the config evaluated twice in one process holds it already
  claimed = true;
  const log = o.log ?? ((m: string) => console.warn(`[schema-holder] ${m}`));
  try {
    if (o.databaseUrl) await claimOnPostgres(o.databaseUrl, o.schema, log);
    else if (o.pgliteDir !== "memory://") await claimOnPglite(o.pgliteDir, o.schema, log);
  } catch (e) {
    // Never a reason not to start: Ponder's own lock still guards the schema, at its own pace.
    log(`schema ${o.schema}: could not check its holder (${(e as Error).message}); Ponder's own lock applies`);
  }
}
