/** `transferAggregates`: registry transfers per UTC bucket, token and classification. */
import { TOKEN_UNITS, TRANSFER_GROUP_KEYS, TRANSFER_TOKENS, type TransferBucket, unitText } from "@kusd/core";
import { builder } from "../builder.js";
import { RangeFilter } from "../filters.js";
import { AggregateInterval, AmountStatsRef, PERIOD_END, PERIOD_START } from "./amount-types.js";
import { transferBuckets } from "./transfer-query.js";

const TransferGroupBy = builder.enumType("TransferGroupBy", {
  description: "Keys a transfer bucket is grouped by besides its period and token.",
  values: TRANSFER_GROUP_KEYS,
});

const TransferBucketRef = builder.objectRef<TransferBucket>("TransferBucket").implement({
  description: "Registry transfers of one UTC bucket and token (and classification when grouped by it).",
  fields: (t) => ({
    periodStart: t.exposeString("periodStart", { description: PERIOD_START }),
    periodEnd: t.exposeString("periodEnd", { description: PERIOD_END }),
    tokenSymbol: t.exposeString("tokenSymbol", { description: TRANSFER_TOKENS.join(" | ") }),
    classification: t.exposeString("classification", {
      nullable: true,
      description: "The spec 2.6 rule 2 class; null unless grouped by CLASSIFICATION",
    }),
    count: t.exposeInt("count", { description: "Transfers in the group" }),
    amount: t.field({
      type: AmountStatsRef,
      description: `Transfer amounts in the token's unit (${Object.entries(TOKEN_UNITS)
        .map(([symbol, u]) => `${symbol}: ${unitText(u)}`)
        .join("; ")})`,
      resolve: (b) => b.amount,
    }),
  }),
});

builder.queryField("transferAggregates", (t) =>
  t.field({
    type: [TransferBucketRef],
    description:
      "Transfers touching registry accounts per UTC bucket and token (count, sum, min, max), grouped in SQL. Sparse: only buckets with transfers.",
    args: {
      interval: t.arg({ type: AggregateInterval, required: true }),
      groupBy: t.arg({ type: [TransferGroupBy], defaultValue: [...TRANSFER_GROUP_KEYS] }),
      token: t.arg.stringList({ description: `Token symbols: ${TRANSFER_TOKENS.join(", ")}` }),
      classification: t.arg.stringList({ description: "Only these classifications" }),
      range: t.arg({ type: RangeFilter }),
    },
    resolve: (_root, a, { reports }) =>
      transferBuckets(reports.db, {
        interval: a.interval,
        groupBy: a.groupBy ?? TRANSFER_GROUP_KEYS,
        token: a.token,
        classification: a.classification,
        range: a.range,
      }),
  }),
);
