/** `vaultEventAggregates`: vault events per UTC bucket, vault and kind, assets and shares labelled per vault. */
import type { VaultBucket } from "@kusd/core";
import { ASSET_TEXT, SHARE_DECIMALS_TEXT } from "@kusd/core";
import { builder } from "../builder.js";
import { VaultKey } from "../entities/vaults.js";
import { RangeFilter } from "../filters.js";
import { AggregateInterval, AmountStatsRef, PERIOD_END, PERIOD_START } from "./amount-types.js";
import { vaultBuckets } from "./vault-query.js";

const VaultBucketRef = builder.objectRef<VaultBucket>("VaultEventBucket").implement({
  description: "Vault events of one UTC bucket, vault and kind.",
  fields: (t) => ({
    periodStart: t.exposeString("periodStart", { description: PERIOD_START }),
    periodEnd: t.exposeString("periodEnd", { description: PERIOD_END }),
    vaultKey: t.exposeString("vaultKey", { description: "skUSD | skUSDDeprecated | vaultV1 | vaultV2" }),
    kind: t.exposeString("kind", {
      description: "deposit | withdraw | transfer | yield | withdrawal_request | withdrawal_claim | sweep | l1_deposit",
    }),
    count: t.exposeInt("count", { description: "Events in the group" }),
    assets: t.field({
      type: AmountStatsRef,
      nullable: true,
      description: `Assets moved, in the vault's asset (${ASSET_TEXT}); null when the kind carries none`,
      resolve: (b) => b.assets,
    }),
    shares: t.field({
      type: AmountStatsRef,
      nullable: true,
      description: `Shares moved, in the vault's share decimals (${SHARE_DECIMALS_TEXT}); null when the kind carries none`,
      resolve: (b) => b.shares,
    }),
  }),
});

builder.queryField("vaultEventAggregates", (t) =>
  t.field({
    type: [VaultBucketRef],
    description:
      "Vault share events per UTC bucket, vault and kind (count, sum, min, max of assets and shares), grouped in SQL. Sparse: only buckets with events.",
    args: {
      interval: t.arg({ type: AggregateInterval, required: true }),
      vault: t.arg({ type: [VaultKey] }),
      kind: t.arg.stringList({ description: "Only these kinds" }),
      range: t.arg({ type: RangeFilter }),
    },
    resolve: (_root, a, { reports }) =>
      vaultBuckets(reports.db, { interval: a.interval, vault: a.vault, kind: a.kind, range: a.range }),
  }),
);
