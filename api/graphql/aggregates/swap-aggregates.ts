/** `swapAggregates`: PSM swaps per UTC bucket, PSM, direction and fee tier, with nets and fees split by unit. */
import type { SwapBucket } from "@kusd/core";
import { KUSD, SWAP_GROUP_KEYS, USDC, unitText } from "@kusd/core";
import { builder } from "../builder.js";
import { SwapDirection } from "../entities/swaps.js";
import { RangeFilter } from "../filters.js";
import { PsmKeyEnum } from "../nodes.js";
import { AggregateInterval, AmountRef, AmountStatsRef, PERIOD_END, PERIOD_START } from "./amount-types.js";
import { swapBuckets } from "./swap-query.js";

const SwapGroupBy = builder.enumType("SwapGroupBy", {
  description: "Keys a swap bucket is grouped by besides its period (FEE_TIER: feeBps).",
  values: SWAP_GROUP_KEYS,
});

const SwapBucketRef = builder.objectRef<SwapBucket>("SwapBucket").implement({
  description:
    "PSM swaps of one UTC bucket and group. Keys left out of groupBy are null. Mint fees are USDC and redemption fees kUSD, so they are two figures, never one sum.",
  fields: (t) => ({
    periodStart: t.exposeString("periodStart", { description: PERIOD_START }),
    periodEnd: t.exposeString("periodEnd", { description: PERIOD_END }),
    psm: t.field({
      type: PsmKeyEnum,
      nullable: true,
      description: "null unless grouped by PSM",
      resolve: (b) => b.psmKey as "psmMint" | null,
    }),
    direction: t.field({
      type: SwapDirection,
      nullable: true,
      description: "null unless grouped by DIRECTION",
      resolve: (b) => b.direction,
    }),
    feeBps: t.exposeInt("feeBps", {
      nullable: true,
      description: "The fee tier in basis points; null unless grouped by FEE_TIER",
    }),
    count: t.exposeInt("count", { description: "Swaps in the group" }),
    mints: t.exposeInt("mints", { description: "Mints (USDC → kUSD) in the group" }),
    redemptions: t.exposeInt("redemptions", { description: "Redemptions (kUSD → USDC) in the group" }),
    usdc: t.field({
      type: AmountStatsRef,
      description: `usdcAmount (${unitText(USDC)}): taken in by mints, paid out by redemptions`,
      resolve: (b) => b.usdc,
    }),
    kusd: t.field({
      type: AmountStatsRef,
      description: `kusdAmount (${unitText(KUSD)}): minted by mints, taken in by redemptions`,
      resolve: (b) => b.kusd,
    }),
    mintFees: t.field({
      type: AmountStatsRef,
      nullable: true,
      description: `Fees of the group's mints (${unitText(USDC)}); null when it has no mint`,
      resolve: (b) => b.mintFees,
    }),
    redeemFees: t.field({
      type: AmountStatsRef,
      nullable: true,
      description: `Fees of the group's redemptions (${unitText(KUSD)}); null when it has no redemption`,
      resolve: (b) => b.redeemFees,
    }),
    kusdBurned: t.field({
      type: AmountRef,
      description: `kUSD the PSMs burned in the group's redemptions (${unitText(KUSD)})`,
      resolve: (b) => b.kusdBurned,
    }),
    netKusd: t.field({
      type: AmountRef,
      description: `kUSD minted by mints minus kUSD taken in by redemptions (${unitText(KUSD)}; negative when redemptions lead)`,
      resolve: (b) => b.netKusd,
    }),
    netUsdc: t.field({
      type: AmountRef,
      description: `USDC taken in by mints minus USDC paid out by redemptions (${unitText(USDC)}; may be negative)`,
      resolve: (b) => b.netUsdc,
    }),
  }),
});

builder.queryField("swapAggregates", (t) =>
  t.field({
    type: [SwapBucketRef],
    description:
      "PSM swaps per UTC bucket and group (count, sum, min, max of each amount; mint minus redeem nets), grouped in SQL. Sparse: only buckets with swaps.",
    args: {
      interval: t.arg({ type: AggregateInterval, required: true }),
      groupBy: t.arg({
        type: [SwapGroupBy],
        defaultValue: [...SWAP_GROUP_KEYS],
        description: "Group keys besides the period (default all three; [] gives one bucket per period)",
      }),
      psm: t.arg({ type: [PsmKeyEnum] }),
      direction: t.arg({ type: SwapDirection }),
      feeBps: t.arg.intList({ description: "Only these fee tiers (basis points)" }),
      range: t.arg({ type: RangeFilter }),
    },
    resolve: (_root, a, { reports }) =>
      swapBuckets(reports.db, {
        interval: a.interval,
        groupBy: a.groupBy ?? SWAP_GROUP_KEYS,
        psm: a.psm,
        direction: a.direction,
        feeBps: a.feeBps,
        range: a.range,
      }),
  }),
);
