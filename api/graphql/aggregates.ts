/** Aggregates analysts ask for: PSM volume per day or month, and redemptions by redeemer. */

import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { PSM_SWAP_COLUMNS } from "../../core/indexed/columns.js";
import * as schema from "../../ponder.schema.js";
import { builder } from "./builder.js";
import { SwapDirection } from "./entities/swaps.js";
import { present, RangeFilter, rangeConditions } from "./filters.js";
import { badInput, pageSize } from "./inputs.js";
import { AccountRef, PsmKeyEnum } from "./nodes.js";

export const MAX_BUCKETS = 5_000;

const Interval = builder.enumType("Interval", { values: ["DAY", "MONTH"] as const });

type Bucket = {
  period: string;
  psmKey: string;
  direction: string;
  count: number;
  usdcTotal: bigint;
  kusdTotal: bigint;
  feeTotal: bigint;
};

const BucketRef = builder.objectRef<Bucket>("PsmVolumeBucket").implement({
  fields: (t) => ({
    period: t.exposeString("period", { description: "Start of the UTC day or month, ISO date" }),
    psmKey: t.exposeString("psmKey"),
    direction: t.exposeString("direction"),
    count: t.exposeInt("count"),
    usdcTotal: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (b) => b.usdcTotal }),
    kusdTotal: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (b) => b.kusdTotal }),
    feeTotal: t.field({
      type: "BigInt",
      description: `Sum of fee. ${PSM_SWAP_COLUMNS.fee}`,
      resolve: (b) => b.feeTotal,
    }),
  }),
});

builder.queryField("psmVolume", (t) =>
  t.field({
    type: [BucketRef],
    description: "Swap totals per PSM, direction and UTC day or month.",
    args: {
      interval: t.arg({ type: Interval, required: true }),
      psm: t.arg({ type: [PsmKeyEnum] }),
      direction: t.arg({ type: SwapDirection }),
      range: t.arg({ type: RangeFilter }),
    },
    resolve: async (_root, args, { reports }) => {
      const s = schema.psmSwap;
      const unit = args.interval === "DAY" ? sql.raw("'day'") : sql.raw("'month'");
      const period = sql<string>`to_char(date_trunc(${unit}, to_timestamp(${s.timestamp}::double precision) at time zone 'UTC'), 'YYYY-MM-DD')`;
      const rows = await reports.db
        .select({
          period,
          psmKey: s.psmKey,
          direction: s.direction,
          count: sql<number>`count(*)`,
          usdc: sql<string>`sum(${s.usdcAmount})`,
          kusd: sql<string>`sum(${s.kusdAmount})`,
          fee: sql<string>`sum(${s.fee})`,
        })
        .from(s)
        .where(
          and(
            ...present([
              args.psm?.length ? inArray(s.psmKey, args.psm) : undefined,
              args.direction ? eq(s.direction, args.direction) : undefined,
              ...rangeConditions(args.range, s.blockNumber, s.timestamp),
            ]),
          ),
        )
        .groupBy(period, s.psmKey, s.direction)
        .orderBy(period, s.psmKey, s.direction)
        .limit(MAX_BUCKETS + 1);
      if (rows.length > MAX_BUCKETS)
        throw badInput(`more than ${MAX_BUCKETS} buckets: narrow the range or use MONTH`, { max: MAX_BUCKETS });
      return rows.map((r) => ({
        period: r.period,
        psmKey: r.psmKey,
        direction: r.direction,
        count: Number(r.count),
        usdcTotal: BigInt(r.usdc ?? 0),
        kusdTotal: BigInt(r.kusd ?? 0),
        feeTotal: BigInt(r.fee ?? 0),
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
