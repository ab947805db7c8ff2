/**
 * Aggregates analysts ask for: time buckets over swaps, transfers and vault events (in
 * aggregates/), the older psmVolume on top of the swap buckets, and redemptions by redeemer.
 */

import type { LabelledAmount } from "@kusd/core";
import { MAX_BUCKETS, PSM_SWAP_COLUMNS } from "@kusd/core";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import * as schema from "../../ponder.schema.js";
import { AmountRef } from "./aggregates/amount-types.js";
import { swapBuckets } from "./aggregates/swap-query.js";
import { builder } from "./builder.js";
import { SwapDirection } from "./entities/swaps.js";
import { present, RangeFilter, rangeConditions } from "./filters.js";
import { pageSize } from "./inputs.js";
import { AccountRef, PsmKeyEnum } from "./nodes.js";
import "./aggregates/swap-aggregates.js";
import "./aggregates/transfer-aggregates.js";
import "./aggregates/vault-aggregates.js";

export { MAX_BUCKETS };

const Interval = builder.enumType("Interval", { values: ["DAY", "MONTH"] as const });

type Bucket = {
  period: string;
  psmKey: string;
  direction: string;
  count: number;
  usdcTotal: bigint;
  kusdTotal: bigint;
  fee: LabelledAmount;
};

const BucketRef = builder.objectRef<Bucket>("PsmVolumeBucket").implement({
  fields: (t) => ({
    period: t.exposeString("period", { description: "Start of the UTC day or month, ISO date" }),
    psmKey: t.exposeString("psmKey"),
    direction: t.exposeString("direction"),
    count: t.exposeInt("count"),
    usdcTotal: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (b) => b.usdcTotal }),
    kusdTotal: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (b) => b.kusdTotal }),
    fee: t.field({
      type: AmountRef,
      description: "Sum of fee, labelled: USDC (6 decimals) for mint buckets, kUSD (18 decimals) for redeem buckets",
      resolve: (b) => b.fee,
    }),
    feeTotal: t.field({
      type: "BigInt",
      description: `Sum of fee. ${PSM_SWAP_COLUMNS.fee}`,
      deprecationReason: "Unlabelled: use fee, which carries its unit and decimals",
      resolve: (b) => b.fee.raw,
    }),
  }),
});

builder.queryField("psmVolume", (t) =>
  t.field({
    type: [BucketRef],
    description: "Swap totals per PSM, direction and UTC day or month.",
    deprecationReason:
      "Use swapAggregates(interval, groupBy: [PSM, DIRECTION]): HOUR to MONTH, min and max, nets, and every amount labelled",
    args: {
      interval: t.arg({ type: Interval, required: true }),
      psm: t.arg({ type: [PsmKeyEnum] }),
      direction: t.arg({ type: SwapDirection }),
      range: t.arg({ type: RangeFilter }),
    },
    resolve: async (_root, args, { reports }) => {
      const buckets = await swapBuckets(reports.db, {
        interval: args.interval,
        groupBy: ["PSM", "DIRECTION"],
        psm: args.psm,
        direction: args.direction,
        range: args.range,
      });
      return buckets.map((b) => ({
        period: b.periodStart.slice(0, 10),
        psmKey: b.psmKey!,
        direction: b.direction!,
        count: b.count,
        usdcTotal: b.usdc.sum.raw,
        kusdTotal: b.kusd.sum.raw,
        // Grouped by direction, a bucket holds one kind of fee.
        fee: (b.direction === "mint" ? b.mintFees : b.redeemFees)!.sum,
      }));
    },
  }),
);

type ByRedeemer = {
  redeemer: string;
  count: number;
  kusdTotal: bigint;
  usdcTotal: bigint;
  firstBlock: bigint;
  lastBlock: bigint;
};

const ByRedeemerRef = builder.objectRef<ByRedeemer>("RedemptionsByRedeemer").implement({
  fields: (t) => ({
    redeemer: t.field({ type: AccountRef, resolve: (r) => ({ address: r.redeemer }) }),
    count: t.exposeInt("count"),
    kusdTotal: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (r) => r.kusdTotal }),
    usdcTotal: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (r) => r.usdcTotal }),
    firstBlock: t.field({ type: "BigInt", resolve: (r) => r.firstBlock }),
    lastBlock: t.field({ type: "BigInt", resolve: (r) => r.lastBlock }),
  }),
});

builder.queryField("redemptionsByRedeemer", (t) =>
  t.field({
    type: [ByRedeemerRef],
    description: "Redemption totals per redeemer, largest first.",
    args: { psm: t.arg({ type: [PsmKeyEnum] }), range: t.arg({ type: RangeFilter }), first: t.arg.int() },
    resolve: async (_root, args, { reports }) => {
      const first = pageSize(args.first);
      const s = schema.psmSwap;
      const kusd = sql<string>`sum(${s.kusdAmount})`;
      const rows = await reports.db
        .select({
          user: s.user,
          count: sql<number>`count(*)`,
          kusd,
          usdc: sql<string>`sum(${s.usdcAmount})`,
          firstBlock: sql<string>`min(${s.blockNumber})`,
          lastBlock: sql<string>`max(${s.blockNumber})`,
        })
        .from(s)
        .where(
          and(
            ...present([
              eq(s.direction, "redeem"),
              args.psm?.length ? inArray(s.psmKey, args.psm) : undefined,
              ...rangeConditions(args.range, s.blockNumber, s.timestamp),
            ]),
          ),
        )
        .groupBy(s.user)
        .orderBy(desc(kusd), s.user)
        .limit(first);
      return rows.map((r) => ({
        redeemer: r.user,
        count: Number(r.count),
        kusdTotal: BigInt(r.kusd ?? 0),
        usdcTotal: BigInt(r.usdc ?? 0),
        firstBlock: BigInt(r.firstBlock),
        lastBlock: BigInt(r.lastBlock),
      }));
    },
  }),
);
