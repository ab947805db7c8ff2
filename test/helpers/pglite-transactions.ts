/**
 * Which transactions wrote an indexer's rows, read from its stopped PGlite directory: Postgres
 * stamps each row version with the id of the transaction that wrote it (`xmin`). A backfill batch
 * whose rows and checkpoint commit together leaves one id per batch; one that commits statement by
 * statement leaves one per table it wrote, and a kill between two of them leaves rows past the
 * checkpoint (patches/ponder+0.16.10.patch, runtime/multichain.js).
 */
import { PGlite } from "@electric-sql/pglite";

/** How many distinct transactions wrote the rows of every table with a `block_number`, at blocks up to `upTo`. */
export async function writingTransactions(pgliteDir: string, schema: string, upTo: number): Promise<number> {
  const db = new PGlite(pgliteDir);
  try {
    const tables = (
      await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.columns
         WHERE table_schema = $1 AND column_name = 'block_number' AND table_name NOT LIKE '\\_reorg%'`,
        [schema],
      )
    ).rows.map((r) => r.table_name);
    const quoted = `"${schema.replaceAll('"', '""')}"`;
    const union = tables
      .map((t) => `SELECT xmin::text AS x FROM ${quoted}."${t.replaceAll('"', '""')}" WHERE block_number <= $1`)
      .join(" UNION ALL ");
    const [row] = (await db.query<{ n: number }>(`SELECT count(DISTINCT x)::int AS n FROM (${union}) AS rows`, [upTo]))
      .rows;
    return row?.n ?? 0;
  } finally {
    await db.close();
  }
}
