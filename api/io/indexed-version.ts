/**
 * A fingerprint of the indexed state: Ponder's checkpoint on base plus, for every table, the
 * newest entry of its reorg journal (`_reorg__<table>.operation_id`, a sequence Ponder appends to
 * on each unfinalized write and trims on a reorg or finalization). Any write, reorg or rollback
 * changes it, including a reorg that replaces the head block by another at the same height and
 * second, which the checkpoint alone does not show; the chain's own hash would show it before the
 * indexer has applied it. Null when the journals are not readable (a reader over the views
 * schema): then nothing may be cached by it.
 */
import { getTableName, is, sql, Table } from "drizzle-orm";
import * as schema from "../../ponder.schema.js";
import type { ReadDb } from "./indexed-reads.js";
import { coalesce, memo, perObject } from "./memo.js";

const TABLES = (Object.values(schema) as unknown[]).flatMap((t) => (is(t, Table) ? [getTableName(t)] : []));

const journalMaxima = sql.join(
  TABLES.map((t) => sql`coalesce((select max(operation_id) from ${sql.identifier(`_reorg__${t}`)}), 0)::text`),
  sql` || ':' || `,
);

/**
 * Read at most every `freshMs` (0: only requests that arrive together share the read): under load
 * the read itself was the cost (PGlite runs one query at a time). An answer is then at most that
 * much older than the state, as a report at the head is (DEFAULT_HEAD_FRESH_MS).
 */
export function indexedVersion(db: ReadDb, freshMs = 0): Promise<string | null> {
  if (freshMs <= 0) return shared(db)("version", () => readVersion(db));
  return kept(db)(String(freshMs), () => readVersion(db));
}

const shared = perObject((_db: ReadDb) => coalesce<string | null>());
const kept = perObject((_db: ReadDb) => {
  const byTtl = new Map<string, ReturnType<typeof memo<string | null>>>();
  return (freshMs: string, read: () => Promise<string | null>) => {
    let m = byTtl.get(freshMs);
    if (!m) {
      m = memo<string | null>({ max: 1, ttlMs: Number(freshMs), keep: (v) => v !== null });
      byTtl.set(freshMs, m);
    }
    return m("version", read);
  };
});

async function readVersion(db: ReadDb): Promise<string | null> {
  try {
    const result = await db.execute(
      sql`select (select latest_checkpoint from _ponder_checkpoint where chain_name = 'base') || '/' || ${journalMaxima} as version`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
      version: string | null;
    }[];
    return rows[0]?.version ?? null;
  } catch {
    return null;
  }
}
