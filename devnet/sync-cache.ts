/**
 * Ponder keeps fetched chain data in the `ponder_sync` schema, keyed by chain id. A devnet is
 * re-created with the same chain ids (8453, 1) but different blocks, and Ponder's
 * `disableCache` only stops it from trusting cached *intervals*: rows already stored for a
 * block win over the new chain's, so a second devnet on the same PostgreSQL database reads
 * stale transactions (seen: `event.transaction` empty). Before an indexer starts over a
 * devnet, this removes the stored rows of those chain ids up to the devnet's head. Real
 * chains' rows sit tens of millions of blocks higher and are never touched.
 */
import postgres from "postgres";

const TABLES: Record<string, string> = {
  blocks: "number",
  logs: "block_number",
  transactions: "block_number",
  transaction_receipts: "block_number",
  traces: "block_number",
  factory_addresses: "block_number",
  rpc_request_results: "block_number",
};

export async function clearDevnetSyncRows(
  databaseUrl: string,
  chains: { chainId: number; throughBlock: number }[],
): Promise<number> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [schema] = await sql<
      { exists: boolean }[]
    >`select exists (select 1 from information_schema.schemata where schema_name = 'ponder_sync')`;
    if (!schema?.exists) return 0;
    const present = new Set(
      (
        await sql<
          { table_name: string }[]
        >`select table_name from information_schema.tables where table_schema = 'ponder_sync'`
      ).map((r) => r.table_name),
    );
    let removed = 0;
    for (const [table, column] of Object.entries(TABLES)) {
      if (!present.has(table)) continue;
      for (const { chainId, throughBlock } of chains) {
        const result =
          await sql`delete from ponder_sync.${sql(table)} where chain_id = ${chainId} and ${sql(column)} <= ${throughBlock}`;
        removed += result.count;
      }
    }
    return removed;
  } finally {
    await sql.end();
  }
}
