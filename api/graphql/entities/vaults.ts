/** Vault share events (deposits, withdrawals, share transfers, yield), share prices and share balances. */
import { eq, gte, inArray, or } from "drizzle-orm";
import { getAddress } from "viem";
import * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { connectionOf, type Keyset, keysetPage, OrderDirection } from "../connection.js";
import { RangeFilter, rangeConditions } from "../filters.js";
import { address, isoOf } from "../inputs.js";
import { ShareBalanceRef } from "../nodes.js";

type VaultEvent = typeof schema.vaultEvent.$inferSelect;
type SharePrice = typeof schema.sharePrice.$inferSelect;
type ShareBalance = typeof schema.shareBalance.$inferSelect;

const vaultEventKey: Keyset<VaultEvent> = {
  columns: [schema.vaultEvent.blockNumber, schema.vaultEvent.logIndex],
  types: ["bigint", "int"],
  of: (r) => [r.blockNumber, r.logIndex],
};
const sharePriceKey: Keyset<SharePrice> = {
  columns: [schema.sharePrice.blockNumber, schema.sharePrice.id],
  types: ["bigint", "text"],
  of: (r) => [r.blockNumber, r.id],
};
/** Always ascending: shareBalances takes no orderDirection. */
const shareBalanceKey: Keyset<ShareBalance> = { columns: [schema.shareBalance.id], types: ["text"], of: (r) => [r.id] };

export const VaultKey = builder.enumType("VaultKey", {
  values: ["skUSD", "skUSDDeprecated", "vaultV1", "vaultV2"] as const,
});

const maybeAddress = (v: string | null) => (v ? getAddress(v) : null);

const VaultEventRef = builder.objectRef<VaultEvent>("VaultEvent").implement({
  description:
    "deposit | withdraw | transfer (shares) | yield, on any vault. Assets in the vault's asset units (kUSD or WETH, 18 decimals); skUSD shares 24 decimals.",
  fields: (t) => ({
    id: t.exposeString("id"),
    vaultKey: t.exposeString("vaultKey"),
    vault: t.string({ resolve: (e) => getAddress(e.vault) }),
    kind: t.exposeString("kind"),
    sender: t.string({ nullable: true, resolve: (e) => maybeAddress(e.sender) }),
    from: t.string({ nullable: true, resolve: (e) => maybeAddress(e.from) }),
    to: t.string({ nullable: true, resolve: (e) => maybeAddress(e.to) }),
    assets: t.field({ type: "BigInt", nullable: true, resolve: (e) => e.assets }),
    shares: t.field({ type: "BigInt", nullable: true, resolve: (e) => e.shares }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (e) => e.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({ resolve: (e) => isoOf(e.timestamp) }),
  }),
});

const VaultEventFilter = builder.inputType("VaultEventFilter", {
  fields: (t) => ({
    vault: t.field({ type: [VaultKey] }),
    kind: t.string({
      description: "deposit | withdraw | transfer | yield | withdrawal_request | withdrawal_claim | sweep | l1_deposit",
    }),
    account: t.string({ description: "Sender, owner or receiver" }),
    range: t.field({ type: RangeFilter }),
    minAssets: t.field({ type: "BigInt" }),
  }),
});

builder.queryField("vaultEvents", (t) =>
  t.field({
    type: connectionOf<VaultEvent>("VaultEvent", VaultEventRef),
    args: {
      filter: t.arg({ type: VaultEventFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const v = schema.vaultEvent;
      const f = args.filter ?? {};
      const filters = () => {
        const account = address(f.account, "filter.account");
        return [
          f.vault?.length ? inArray(v.vaultKey, f.vault) : undefined,
          f.kind ? eq(v.kind, f.kind) : undefined,
          account ? or(eq(v.sender, account), eq(v.from, account), eq(v.to, account)) : undefined,
          f.minAssets != null ? gte(v.assets, f.minAssets) : undefined,
          ...rangeConditions(f.range, v.blockNumber, v.timestamp),
        ];
      };
      return keysetPage(args, vaultEventKey, filters, (q) =>
        reports.db
          .select()
          .from(v)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

const SharePriceRef = builder.objectRef<SharePrice>("SharePrice").implement({
  description: "convertToAssets(1e24) of a staking vault at a block, with totalAssets and totalSupply.",
  fields: (t) => ({
    vaultKey: t.exposeString("vaultKey"),
    vault: t.string({ resolve: (p) => getAddress(p.vault) }),
    assetsPerShare: t.field({
      type: "BigInt",
      description: "kUSD (18 decimals) per whole share (1e24 units)",
      resolve: (p) => p.assetsPerShare,
    }),
    totalAssets: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (p) => p.totalAssets }),
    totalSupply: t.field({ type: "BigInt", description: "shares, 24 decimals", resolve: (p) => p.totalSupply }),
    blockNumber: t.field({ type: "BigInt", resolve: (p) => p.blockNumber }),
    timestamp: t.string({ resolve: (p) => isoOf(p.timestamp) }),
  }),
});

builder.queryField("sharePrices", (t) =>
  t.field({
    type: connectionOf<SharePrice>("SharePrice", SharePriceRef),
    args: {
      vault: t.arg({ type: VaultKey }),
      range: t.arg({ type: RangeFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const p = schema.sharePrice;
      const filters = () => [
        args.vault ? eq(p.vaultKey, args.vault) : undefined,
        ...rangeConditions(args.range, p.blockNumber, p.timestamp),
      ];
      return keysetPage(args, sharePriceKey, filters, (q) =>
        reports.db
          .select()
          .from(p)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

builder.queryField("shareBalances", (t) =>
  t.field({
    type: connectionOf("ShareBalance", ShareBalanceRef),
    args: {
      vault: t.arg({ type: VaultKey }),
      account: t.arg.string(),
      minShares: t.arg({ type: "BigInt" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const b = schema.shareBalance;
      const filters = () => {
        const account = address(args.account, "account");
        return [
          args.vault ? eq(b.vaultKey, args.vault) : undefined,
          account ? eq(b.account, account) : undefined,
          args.minShares != null ? gte(b.shares, args.minShares) : undefined,
        ];
      };
      return keysetPage(args, shareBalanceKey, filters, (q) =>
        reports.db
          .select()
          .from(b)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);
