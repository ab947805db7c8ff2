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
import { type ReadDb, rowsOf } from "./indexed-reads.js";

const TABLES = (Object.values(schema) as unknown[]).flatMap((t) => (is(t, Table) ? [getTableName(t)] : []));

const journalMaxima = sql.join(
  TABLES.map((t) => sql`coalesce((select max(operation_id) from ${sql.identifier(`_reorg__${t}`)}), 0)::text`),
  sql` || ':' || `,
);

/** One read of the fingerprint; null when the journals are not readable. */
export async function readIndexedVersion(db: ReadDb): Promise<string | null> {
  try {
    const result = await db.execute(
      sql`select (select latest_checkpoint from _ponder_checkpoint where chain_name = 'base') || '/' || ${journalMaxima} as version`,
    );
    const rows = rowsOf(result) as { version: string | null }[];
    return rows[0]?.version ?? null;
  } catch {
    return null;
  }
}
