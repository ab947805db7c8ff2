/** The GraphQL shapes every aggregate shares: the bucket interval, a labelled amount and its stats. */
import type { AmountStats, LabelledAmount } from "@kusd/core";
import { BUCKET_INTERVALS, MAX_BUCKETS, TOKEN_UNITS, VAULT_UNITS } from "@kusd/core";
import { builder } from "../builder.js";

// Every unit an aggregate can name, as the one table of decimals has them.
const UNITS = [
  ...new Map(
    [...Object.values(TOKEN_UNITS), ...Object.values(VAULT_UNITS).flatMap((v) => [v.asset, v.shares])].map((u) => [
      u.symbol,
      u,
    ]),
  ).values(),
];
const UNIT_NAMES = UNITS.map((u) => u.symbol).join(", ");
const UNIT_DECIMALS = UNITS.map((u) => `${u.symbol} ${u.decimals}`).join(", ");

export const AggregateInterval = builder.enumType("AggregateInterval", {
  description: `UTC buckets: HOUR, DAY, WEEK (ISO week, from Monday 00:00 UTC), MONTH. At most ${MAX_BUCKETS} groups per answer (MAX_BUCKETS); more is a BAD_USER_INPUT error naming the limit.`,
  values: BUCKET_INTERVALS,
});

export const AmountRef = builder.objectRef<LabelledAmount>("Amount").implement({
  description:
    "A token amount with its unit: raw is the integer in the token's smallest unit, formatted = raw / 10^decimals exactly.",
  fields: (t) => ({
    raw: t.field({ type: "BigInt", description: "Integer in the unit's smallest denomination", resolve: (a) => a.raw }),
    unit: t.exposeString("unit", { description: `The token or share: ${UNIT_NAMES}` }),
    decimals: t.exposeInt("decimals", { description: `Decimals of the unit (${UNIT_DECIMALS})` }),
    formatted: t.exposeString("formatted", { description: "raw / 10^decimals as an exact decimal string" }),
  }),
});

export const AmountStatsRef = builder.objectRef<AmountStats>("AmountStats").implement({
  description: "Count, sum, min and max of one amount over a group's rows, each labelled with the same unit.",
  fields: (t) => ({
    count: t.exposeInt("count", { description: "Rows of the group that carry this amount" }),
    sum: t.field({ type: AmountRef, resolve: (s) => s.sum }),
    min: t.field({ type: AmountRef, resolve: (s) => s.min }),
    max: t.field({ type: AmountRef, resolve: (s) => s.max }),
  }),
});

export const PERIOD_START = "Start of the UTC bucket, ISO 8601";
export const PERIOD_END = "End of the UTC bucket (exclusive), ISO 8601";
