import { onchainTable } from "ponder";

// Ponder needs a schema; the bare app never writes to it.
export const untouched = onchainTable("untouched", (t) => ({ id: t.text().primaryKey() }));

/**
 * The floor app's one table (KUSD_BENCH_FLOOR=1, src/index.ts): a row per subscribed log, as wide
 * as the real indexer's event rows (a transfer's), keyed by the log as they are.
 */
export const floorRow = onchainTable("floor_row", (t) => ({
  id: t.text().primaryKey(),
  contract: t.hex().notNull(),
  from: t.hex().notNull(),
  to: t.hex().notNull(),
  amount: t.bigint().notNull(),
  txHash: t.hex().notNull(),
  blockNumber: t.bigint().notNull(),
  timestamp: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
}));
