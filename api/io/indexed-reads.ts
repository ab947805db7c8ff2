/**
 * Queries over Ponder's indexed tables, each bounded by a block so a report at a past block
 * sees exactly the history up to it. The same functions serve the Ponder API process (its
 * read-only `db`) and a standalone reader over the views schema.
 */

import { and, asc, eq, gte, lte, type SQLWrapper, sql } from "drizzle-orm";
import type { ReadonlyDrizzle } from "ponder";
import * as schema from "../../ponder.schema.js";
import { coalesce, perObject } from "./memo.js";

/**
 * What the reports read the indexed tables with: drizzle's query builders, which Ponder's
 * read-only `db` (node-postgres or PGlite) and the replica's postgres.js client share. Raw
 * `execute` answers in each driver's own shape: read its rows with rowsOf.
 */
export type ReadDb = Pick<ReadonlyDrizzle<typeof schema>, "select" | "selectDistinct" | "$count"> & {
  execute(query: SQLWrapper): PromiseLike<unknown>;
};

/** The rows of a raw `execute`: postgres.js answers them as an array, node-postgres and PGlite inside `rows`. */
export function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  const rows = typeof result === "object" && result !== null && "rows" in result ? result.rows : null;
  return Array.isArray(rows) ? rows : [];
}

export type IndexedHead = { chain: string; chainId: number; blockNumber: bigint; timestamp: number };

/**
 * The newest block indexed on a chain, from Ponder's own checkpoint table (what /status
 * reports). A checkpoint string starts with the block timestamp (10 digits), the chain id (16)
 * and the block number (16).
 */
export function indexedHead(db: ReadDb, chain: "base" | "ethereum"): Promise<IndexedHead | null> {
  // Requests that arrive together share one query (nothing is kept: the next request asks again).
  return sharedHeads(db)(chain, () => queryIndexedHead(db, chain));
}

const sharedHeads = perObject((_db: ReadDb) => coalesce<IndexedHead | null>());

async function queryIndexedHead(db: ReadDb, chain: "base" | "ethereum"): Promise<IndexedHead | null> {
  const result = await db.execute(
    sql`select chain_id, latest_checkpoint from _ponder_checkpoint where chain_name = ${chain}`,
  );
  const rows = rowsOf(result) as { chain_id: number | string; latest_checkpoint: string }[];
  const row = rows[0];
  if (!row) return null;
  const cp = row.latest_checkpoint;
  return {
    chain,
    chainId: Number(row.chain_id),
    timestamp: Number(cp.slice(0, 10)),
    blockNumber: BigInt(cp.slice(26, 42)),
  };
}

export type IndexedRedemption = typeof schema.psmSwap.$inferSelect;

/** Every PSM redemption (Swap kUSD → USDC) up to and including `block`, oldest first. */
export function redemptionsUpTo(db: ReadDb, block: bigint): Promise<IndexedRedemption[]> {
  return db
    .select()
    .from(schema.psmSwap)
    .where(and(eq(schema.psmSwap.direction, "redeem"), lte(schema.psmSwap.blockNumber, block)))
    .orderBy(asc(schema.psmSwap.blockNumber), asc(schema.psmSwap.logIndex));
}

/** kUSD burned (Transfer to the zero address) up to `block`, raw 18-decimal units. */
export async function kusdBurnedUpTo(db: ReadDb, block: bigint): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${schema.kusdSupplyEvent.amount})` })
    .from(schema.kusdSupplyEvent)
    .where(and(eq(schema.kusdSupplyEvent.kind, "burn"), lte(schema.kusdSupplyEvent.blockNumber, block)));
  return BigInt(row?.total ?? 0);
}

/** Accounts holding `role` on `contract` at `block`, replaying the indexed grants and revocations. */
export async function roleHoldersAt(
  db: ReadDb,
  contract: `0x${string}`,
  role: `0x${string}`,
  block: bigint,
): Promise<{ account: `0x${string}`; sinceBlock: bigint }[]> {
  const events = await db
    .select()
    .from(schema.roleEvent)
    .where(
      and(
        eq(schema.roleEvent.contract, contract),
        eq(schema.roleEvent.role, role),
        lte(schema.roleEvent.blockNumber, block),
      ),
    )
    .orderBy(asc(schema.roleEvent.blockNumber), asc(schema.roleEvent.id));
  const holders = new Map<string, bigint>();
  for (const e of events) {
    if (e.granted) holders.set(e.account.toLowerCase(), holders.get(e.account.toLowerCase()) ?? e.blockNumber);
    else holders.delete(e.account.toLowerCase());
  }
  return [...holders].map(([account, sinceBlock]) => ({ account: account as `0x${string}`, sinceBlock }));
}

export type IndexedViolation = typeof schema.registryViolation.$inferSelect;

/**
 * Registry violations in (block, logIndex) order after a cursor, up to `toBlock`. The cursor is
 * the last row a reader saw, so polling with it misses nothing and repeats nothing.
 */
export function violationsAfter(
  db: ReadDb,
  o: { after: { block: bigint; logIndex: number } | null; fromBlock: bigint; toBlock: bigint; limit: number },
): Promise<IndexedViolation[]> {
  const v = schema.registryViolation;
  const cursor = o.after ? sql`(${v.blockNumber}, ${v.logIndex}) > (${o.after.block}, ${o.after.logIndex})` : sql`true`;
  return db
    .select()
    .from(v)
    .where(and(cursor, gte(v.blockNumber, o.fromBlock), lte(v.blockNumber, o.toBlock)))
    .orderBy(asc(v.blockNumber), asc(v.logIndex))
    .limit(o.limit);
}

/** How many registry violations are indexed (GET /metrics). */
export async function countViolations(db: ReadDb): Promise<number> {
  const [row] = await db.select({ n: sql<string>`count(*)` }).from(schema.registryViolation);
  return Number(row?.n ?? 0);
}

/** Alert-worthy indexed events in a block range, for monitors: MINTER_ROLE grants and revocations, PSM pauses, large redemptions. */
export function minterGrantsIn(db: ReadDb, fromBlock: bigint, toBlock: bigint, role: `0x${string}`) {
  const e = schema.roleEvent;
  return db
    .select()
    .from(e)
    .where(and(eq(e.role, role), eq(e.granted, true), gte(e.blockNumber, fromBlock), lte(e.blockNumber, toBlock)))
    .orderBy(asc(e.blockNumber), asc(e.id));
}

/** MINTER_ROLE grants and revocations, in chain order. */
export function minterRoleChangesIn(db: ReadDb, fromBlock: bigint, toBlock: bigint, role: `0x${string}`) {
  const e = schema.roleEvent;
  return db
    .select()
    .from(e)
    .where(and(eq(e.role, role), gte(e.blockNumber, fromBlock), lte(e.blockNumber, toBlock)))
    .orderBy(asc(e.blockNumber), asc(e.id));
}

export function psmPausesIn(db: ReadDb, fromBlock: bigint, toBlock: bigint) {
  const e = schema.psmPauseEvent;
  return db
    .select()
    .from(e)
    .where(and(eq(e.paused, true), gte(e.blockNumber, fromBlock), lte(e.blockNumber, toBlock)))
    .orderBy(asc(e.blockNumber), asc(e.id));
}

export function redemptionsIn(db: ReadDb, fromBlock: bigint, toBlock: bigint, minKusd: bigint) {
  const e = schema.psmSwap;
  return db
    .select()
    .from(e)
    .where(
      and(
        eq(e.direction, "redeem"),
        gte(e.kusdAmount, minKusd),
        gte(e.blockNumber, fromBlock),
        lte(e.blockNumber, toBlock),
      ),
    )
    .orderBy(asc(e.blockNumber), asc(e.logIndex));
}
