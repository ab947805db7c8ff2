/**
 * The indexed tables behind the live subscriptions, as `LiveSource`s: each applies its
 * subscription's filters in SQL and reads in chain order. The head is Ponder's checkpoint, so a
 * block is read only once it is indexed whole.
 */
import { and, asc, eq, gte, inArray, lte, or, type SQL } from "drizzle-orm";
import * as schema from "../../../ponder.schema.js";
import { headWatchOf } from "../../io/head-watch.js";
import { indexedHead, type ReadDb } from "../../io/indexed-reads.js";
import type { BlockRange, LiveSource } from "./stream.js";

export type SwapRow = typeof schema.psmSwap.$inferSelect;
export type TransferRow = typeof schema.registryTransfer.$inferSelect;
export type RoleEventRow = typeof schema.roleEvent.$inferSelect;
export type ViolationRow = typeof schema.registryViolation.$inferSelect;

type Row = { id: string; blockNumber: bigint };

/** The shape every source shares: Base's indexed head, the row's id and block. */
function source<T extends Row>(db: ReadDb, rows: (range: BlockRange) => Promise<T[]>): LiveSource<T> {
  return {
    head: async () => (await indexedHead(db, "base"))?.blockNumber ?? null,
    beyond: (head, signal) => headWatchOf(db).beyond(head, signal),
    rows,
    id: (r) => r.id,
    block: (r) => r.blockNumber,
  };
}

const within = (column: Parameters<typeof gte>[0], r: BlockRange) =>
  and(gte(column, r.fromBlock), lte(column, r.toBlock));

export type SwapFilter = {
  direction?: "mint" | "redeem";
  psm?: readonly string[];
  /** kUSD, 18 decimals. */
  minKusd?: bigint;
  user?: `0x${string}`;
};

export function swapSource(db: ReadDb, f: SwapFilter): LiveSource<SwapRow> {
  const s = schema.psmSwap;
  const where: (SQL | undefined)[] = [
    f.direction ? eq(s.direction, f.direction) : undefined,
    f.psm?.length ? inArray(s.psmKey, [...f.psm]) : undefined,
    f.minKusd !== undefined ? gte(s.kusdAmount, f.minKusd) : undefined,
    f.user ? eq(s.user, f.user) : undefined,
  ];
  return source(db, (r) =>
    db
      .select()
      .from(s)
      .where(and(within(s.blockNumber, r), ...where))
      .orderBy(asc(s.blockNumber), asc(s.logIndex))
      .limit(r.limit),
  );
}

export type TransferFilter = {
  tokenSymbol?: string;
  /** Either side. */
  account?: `0x${string}`;
  classification?: string;
  /** Raw token units. */
  minAmount?: bigint;
};

export function transferSource(db: ReadDb, f: TransferFilter): LiveSource<TransferRow> {
  const x = schema.registryTransfer;
  const where: (SQL | undefined)[] = [
    f.tokenSymbol ? eq(x.tokenSymbol, f.tokenSymbol) : undefined,
    f.account ? or(eq(x.from, f.account), eq(x.to, f.account)) : undefined,
    f.classification ? eq(x.classification, f.classification) : undefined,
    f.minAmount !== undefined ? gte(x.amount, f.minAmount) : undefined,
  ];
  return source(db, (r) =>
    db
      .select()
      .from(x)
      .where(and(within(x.blockNumber, r), ...where))
      .orderBy(asc(x.blockNumber), asc(x.logIndex))
      .limit(r.limit),
  );
}

export type RoleFilter = { contractKey?: string; roleName?: string; account?: `0x${string}`; granted?: boolean };

export function roleEventSource(db: ReadDb, f: RoleFilter): LiveSource<RoleEventRow> {
  const e = schema.roleEvent;
  const where: (SQL | undefined)[] = [
    f.contractKey ? eq(e.contractKey, f.contractKey) : undefined,
    f.roleName ? eq(e.roleName, f.roleName) : undefined,
    f.account ? eq(e.account, f.account) : undefined,
    f.granted !== undefined ? eq(e.granted, f.granted) : undefined,
  ];
  // role_event has no log index: its id, the log's zero-padded block and index, sorts in log order.
  return source(db, (r) =>
    db
      .select()
      .from(e)
      .where(and(within(e.blockNumber, r), ...where))
      .orderBy(asc(e.blockNumber), asc(e.id))
      .limit(r.limit),
  );
}

export function violationSource(db: ReadDb): LiveSource<ViolationRow> {
  const v = schema.registryViolation;
  return source(db, (r) =>
    db.select().from(v).where(within(v.blockNumber, r)).orderBy(asc(v.blockNumber), asc(v.logIndex)).limit(r.limit),
  );
}
