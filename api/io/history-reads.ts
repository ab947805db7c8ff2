/**
 * The indexed rows behind the history series, aggregated per block in SQL: kUSD minted minus
 * burned, USDC and kUSD into and out of each PSM, skUSD's sampled share price, redemptions.
 * All bounded by `toBlock`, so a series at a past head sees exactly the history up to it.
 */

import type { HistoryRows, PsmBalanceChange, PsmKey } from "@kusd/core";
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Address } from "viem";
import * as schema from "../../ponder.schema.js";
import type { ReadDb } from "./indexed-reads.js";

export type HistoryAddresses = { usdc: Address; kUSD: Address; psms: Record<PsmKey, Address> };

export async function historyRowsUpTo(db: ReadDb, a: HistoryAddresses, toBlock: bigint): Promise<HistoryRows> {
  const s = schema.kusdSupplyEvent;
  const t = schema.registryTransfer;
  const p = schema.sharePrice;
  const w = schema.psmSwap;
  const psmOf = new Map(Object.entries(a.psms).map(([k, addr]) => [addr.toLowerCase(), k as PsmKey]));
  const psms = [...psmOf.keys()] as Address[];
  const tokens = [a.usdc.toLowerCase(), a.kUSD.toLowerCase()] as Address[];
  const [supply, transfers, prices, redemptions] = await Promise.all([
    db
      .select({
        blockNumber: s.blockNumber,
        timestamp: s.timestamp,
        delta: sql<string>`sum(case when ${s.kind} = 'mint' then ${s.amount} else -${s.amount} end)`,
      })
      .from(s)
      .where(lte(s.blockNumber, toBlock))
      .groupBy(s.blockNumber, s.timestamp)
      .orderBy(asc(s.blockNumber)),
    db
      .select({
        blockNumber: t.blockNumber,
        timestamp: t.timestamp,
        token: t.token,
        from: t.from,
        to: t.to,
        amount: sql<string>`sum(${t.amount})`,
      })
      .from(t)
      .where(and(lte(t.blockNumber, toBlock), inArray(t.token, tokens), or(inArray(t.from, psms), inArray(t.to, psms))))
      .groupBy(t.blockNumber, t.timestamp, t.token, t.from, t.to)
      .orderBy(asc(t.blockNumber)),
    db
      .select({ blockNumber: p.blockNumber, timestamp: p.timestamp, assetsPerShare: p.assetsPerShare })
      .from(p)
      .where(and(eq(p.vaultKey, "skUSD"), lte(p.blockNumber, toBlock)))
      .orderBy(asc(p.blockNumber)),
    db
      .select({
        blockNumber: w.blockNumber,
        timestamp: w.timestamp,
        count: sql<string>`count(*)`,
        kusd: sql<string>`sum(${w.kusdAmount})`,
        usdc: sql<string>`sum(${w.usdcAmount})`,
      })
      .from(w)
      .where(and(eq(w.direction, "redeem"), lte(w.blockNumber, toBlock)))
      .groupBy(w.blockNumber, w.timestamp)
      .orderBy(asc(w.blockNumber)),
  ]);
  const usdc = a.usdc.toLowerCase();
  const psmBalances: PsmBalanceChange[] = [];
  for (const r of transfers) {
    const token = r.token.toLowerCase() === usdc ? "USDC" : "kUSD";
    const base = { blockNumber: r.blockNumber, timestamp: Number(r.timestamp), token } as const;
    const into = psmOf.get(r.to.toLowerCase());
    const outOf = psmOf.get(r.from.toLowerCase());
    if (into) psmBalances.push({ ...base, psmKey: into, delta: BigInt(r.amount) });
    if (outOf) psmBalances.push({ ...base, psmKey: outOf, delta: -BigInt(r.amount) });
  }
  return {
    supply: supply.map((r) => ({ blockNumber: r.blockNumber, timestamp: Number(r.timestamp), delta: BigInt(r.delta) })),
    psmBalances,
    sharePrices: prices.map((r) => ({
      blockNumber: r.blockNumber,
      timestamp: Number(r.timestamp),
      assetsPerShare: r.assetsPerShare,
    })),
    redemptions: redemptions.map((r) => ({
      blockNumber: r.blockNumber,
      timestamp: Number(r.timestamp),
      count: Number(r.count),
      kusd: BigInt(r.kusd),
      usdc: BigInt(r.usdc),
    })),
  };
}
