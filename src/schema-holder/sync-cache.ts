/**
 * What Ponder fetched of a chain (`ponder_sync`, keyed by chain id alone) is reused by the next
 * start on the same database, and trusted: a restart after a crash fetches nothing again. A chain
 * id says nothing of which chain it was, though: a devnet made again answers 8453 with other
 * blocks, and a second devnet beside the first (a test's own) shares the database's rows. So the
 * rows of a chain are kept only while the lowest and the highest block stored for it are the
 * chain's own (the same hash at that height, read from its RPC); otherwise every row of that chain
 * id goes, as Ponder's own `pruneByChain` would drop them, intervals and request results
 * included, and Ponder fetches the chain again. On Base the check costs two block reads per start.
 */
import type { Query } from "./claim-schema.js";

export type StoredEnds = { lowest: { number: bigint; hash: string }; highest: { number: bigint; hash: string } };

export type SyncCacheVerdict =
  | { chainId: number; kept: false; reason: "nothing stored" }
  | { chainId: number; kept: true; lowest: bigint; highest: bigint }
  | { chainId: number; kept: false; reason: string; removed: number };

/** Why the stored ends are not the chain's (null: they are). */
export function staleReason(
  ends: StoredEnds | null,
  onChain: { lowest: string | null; highest: string | null },
  hasIntervals: boolean,
): string | null {
  if (!ends) return hasIntervals ? "intervals are stored without a block to check them by" : null;
  for (const end of ["lowest", "highest"] as const) {
    const stored = ends[end];
    const chain = onChain[end];
    if (chain === null) return `block ${stored.number} is stored and the chain has no such block`;
    if (chain.toLowerCase() !== stored.hash.toLowerCase())
      return `block ${stored.number} is ${chain.slice(0, 10)}… on the chain, ${stored.hash.slice(0, 10)}… stored`;
  }
  return null;
}

/**
 * Keeps or clears the stored rows of each chain; `hashAt` reads a block's hash from the chain's
 * RPC (null: no such block). A database Ponder has not synced into yet is left alone.
 */
export async function verifySyncCache(
  query: Query,
  chains: { chainId: number; hashAt: (n: bigint) => Promise<string | null> }[],
): Promise<SyncCacheVerdict[]> {
  const tables = (
    await query(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'ponder_sync' AND column_name = 'chain_id'`,
      [],
    )
  ).map((r) => String(r.table_name));
  if (!tables.includes("blocks")) return [];
  const verdicts: SyncCacheVerdict[] = [];
  for (const { chainId, hashAt } of chains) {
    const [row] = await query(
      `SELECT lo.number AS lo_number, lo.hash AS lo_hash, hi.number AS hi_number, hi.hash AS hi_hash
       FROM (SELECT number, hash FROM ponder_sync.blocks WHERE chain_id = $1 ORDER BY number ASC LIMIT 1) lo,
            (SELECT number, hash FROM ponder_sync.blocks WHERE chain_id = $1 ORDER BY number DESC LIMIT 1) hi`,
      [chainId],
    );
    const ends: StoredEnds | null = row
      ? {
          lowest: { number: BigInt(String(row.lo_number)), hash: String(row.lo_hash) },
          highest: { number: BigInt(String(row.hi_number)), hash: String(row.hi_hash) },
        }
      : null;
    // Intervals only matter without a block to check them by.
    const hasIntervals =
      !ends &&
      tables.includes("intervals") &&
      (await query("SELECT 1 FROM ponder_sync.intervals WHERE chain_id = $1 LIMIT 1", [chainId])).length > 0;
    const [lowest, highest] = ends
      ? await Promise.all([hashAt(ends.lowest.number), hashAt(ends.highest.number)])
      : [null, null];
    const reason = staleReason(ends, { lowest, highest }, hasIntervals);
    if (reason === null) {
      verdicts.push(
        ends
          ? { chainId, kept: true, lowest: ends.lowest.number, highest: ends.highest.number }
          : { chainId, kept: false, reason: "nothing stored" },
      );
      continue;
    }
    let removed = 0;
    for (const table of tables) {
      const [gone] = await query(
        `WITH gone AS (DELETE FROM ponder_sync."${table}" WHERE chain_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [chainId],
      );
      removed += Number(gone?.n ?? 0);
    }
    verdicts.push({ chainId, kept: false, reason, removed });
  }
  return verdicts;
}

/** One line for the log: what was kept or cleared, and why. */
export function describeVerdict(v: SyncCacheVerdict): string {
  if (v.kept) return `chain ${v.chainId}: stored blocks ${v.lowest}–${v.highest} are the chain's own: reused`;
  if (!("removed" in v)) return `chain ${v.chainId}: nothing stored yet`;
  return `chain ${v.chainId}: ${v.reason}: its ${v.removed} stored rows cleared, fetched again`;
}
