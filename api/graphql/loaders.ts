/**
 * Per-request DataLoaders: every field that needs more rows for a node batches its keys into
 * one SQL statement per field per request (no N+1). Created fresh for each request, so nothing
 * is cached across requests or reorgs.
 */
import DataLoader from "dataloader";
import { and, eq, inArray, sql } from "drizzle-orm";
import * as schema from "../../ponder.schema.js";
import type { ReadDb } from "../io/indexed-reads.js";

export type RedemptionSummary = { count: number; kusdTotal: bigint; usdcTotal: bigint; feeTotal: bigint };
export type PsmSwapStats = {
  mints: number;
  redemptions: number;
  usdcIn: bigint;
  usdcOut: bigint;
  kusdMinted: bigint;
  kusdRedeemed: bigint;
};
export type ShareBalanceRow = typeof schema.shareBalance.$inferSelect;
export type AccountBalanceRow = typeof schema.accountBalance.$inferSelect;

const big = (v: unknown) => BigInt((v as string | number | null) ?? 0);

export function createLoaders(db: ReadDb) {
  return {
    redemptionSummary: new DataLoader<string, RedemptionSummary>(async (users) => {
      const s = schema.psmSwap;
      const rows = await db
        .select({
          user: s.user,
          count: sql<number>`count(*)`,
          kusd: sql<string>`sum(${s.kusdAmount})`,
          usdc: sql<string>`sum(${s.usdcAmount})`,
          fee: sql<string>`sum(${s.fee})`,
        })
        .from(s)
        .where(and(eq(s.direction, "redeem"), inArray(s.user, users as `0x${string}`[])))
        .groupBy(s.user);
      const by = new Map(rows.map((r) => [r.user, r]));
      return users.map((u) => {
        const r = by.get(u as `0x${string}`);
        return {
          count: Number(r?.count ?? 0),
          kusdTotal: big(r?.kusd),
          usdcTotal: big(r?.usdc),
          feeTotal: big(r?.fee),
        };
      });
    }),
    psmStats: new DataLoader<string, PsmSwapStats>(async (keys) => {
      const s = schema.psmSwap;
      const rows = await db
        .select({
          psmKey: s.psmKey,
          direction: s.direction,
          count: sql<number>`count(*)`,
          usdc: sql<string>`sum(${s.usdcAmount})`,
          kusd: sql<string>`sum(${s.kusdAmount})`,
        })
        .from(s)
        .where(inArray(s.psmKey, keys as string[]))
        .groupBy(s.psmKey, s.direction);
      return keys.map((k) => {
        const mint = rows.find((r) => r.psmKey === k && r.direction === "mint");
        const redeem = rows.find((r) => r.psmKey === k && r.direction === "redeem");
        return {
          mints: Number(mint?.count ?? 0),
          redemptions: Number(redeem?.count ?? 0),
          usdcIn: big(mint?.usdc),
          usdcOut: big(redeem?.usdc),
          kusdMinted: big(mint?.kusd),
          kusdRedeemed: big(redeem?.kusd),
        };
      });
    }),
    shareBalances: new DataLoader<string, ShareBalanceRow[]>(async (accounts) => {
      const rows = await db
        .select()
        .from(schema.shareBalance)
        .where(inArray(schema.shareBalance.account, accounts as `0x${string}`[]));
      return accounts.map((a) => rows.filter((r) => r.account === a && r.shares !== 0n));
    }),
    tokenBalances: new DataLoader<string, AccountBalanceRow[]>(async (accounts) => {
      const rows = await db
        .select()
        .from(schema.accountBalance)
        .where(inArray(schema.accountBalance.account, accounts as `0x${string}`[]));
      return accounts.map((a) => rows.filter((r) => r.account === a));
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** Wraps the database so every statement a request issues is counted. */
export function countingDb(db: ReadDb): { db: ReadDb; count: () => number } {
  let n = 0;
  const counted = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === "select" || prop === "execute" || prop === "selectDistinct") && typeof value === "function") {
        return (...args: unknown[]) => {
          n++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: counted, count: () => n };
}
