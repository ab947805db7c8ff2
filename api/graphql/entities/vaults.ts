/** Vault share events (deposits, withdrawals, share transfers, yield), share prices and share balances. */

import { SHARE_PRICE_COLUMNS as P, VAULT_EVENT_COLUMNS as V } from "@kusd/core";
import { getAddress } from "viem";
import type * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { entityConnection } from "../entity-field.js";
import { VaultKey } from "../enums.js";
import { RangeFilter, rangeWhere } from "../filters.js";
import { isoOf } from "../inputs.js";
import { ShareBalanceRef } from "../nodes.js";
import { shareBalanceSpec, sharePriceSpec, vaultEventSpec } from "../specs/vaults.js";

export { VaultKey };

type VaultEvent = typeof schema.vaultEvent.$inferSelect;
type SharePrice = typeof schema.sharePrice.$inferSelect;

const maybeAddress = (v: string | null) => (v ? getAddress(v) : null);

const VaultEventRef = builder.objectRef<VaultEvent>("VaultEvent").implement({
  description:
    "deposit | withdraw | transfer (shares) | yield, on any vault. Assets in the vault's asset units (kUSD or WETH, 18 decimals); shares: skUSD 24 decimals, vault v1/v2 21.",
  fields: (t) => ({
    id: t.exposeString("id"),
    vaultKey: t.exposeString("vaultKey", { description: V.vaultKey }),
    vault: t.string({ resolve: (e) => getAddress(e.vault) }),
    kind: t.exposeString("kind", { description: V.kind }),
    sender: t.string({ nullable: true, description: V.sender, resolve: (e) => maybeAddress(e.sender) }),
    from: t.string({ nullable: true, description: V.from, resolve: (e) => maybeAddress(e.from) }),
    to: t.string({ nullable: true, description: V.to, resolve: (e) => maybeAddress(e.to) }),
    assets: t.field({ type: "BigInt", nullable: true, description: V.assets, resolve: (e) => e.assets }),
    shares: t.field({ type: "BigInt", nullable: true, description: V.shares, resolve: (e) => e.shares }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (e) => e.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({ description: "ISO 8601", resolve: (e) => isoOf(e.timestamp) }),
  }),
});

const VaultEventFilter = builder.inputType("VaultEventFilter", {
  description: "Deprecated: use where (VaultEvent_filter).",
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

type VaultEventFilterValue = typeof VaultEventFilter.$inferInput;

entityConnection(vaultEventSpec, VaultEventRef, {
  args: (arg) => ({
    filter: arg({
      type: VaultEventFilter,
      deprecationReason: "Use where: { vaultKey_in, kind, assets_gte, OR: [{ sender }, { from }, { to }], … }",
    }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as VaultEventFilterValue;
    const a = f.account;
    return {
      vaultKey_in: f.vault?.length ? f.vault : undefined,
      kind: f.kind,
      assets_gte: f.minAssets,
      OR: a == null ? undefined : [{ sender: a }, { from: a }, { to: a }],
      ...rangeWhere(f.range),
    };
  },
});

const SharePriceRef = builder.objectRef<SharePrice>("SharePrice").implement({
  description: "convertToAssets(1e24) of a staking vault at a block, with totalAssets and totalSupply.",
  fields: (t) => ({
    vaultKey: t.exposeString("vaultKey"),
    vault: t.string({ resolve: (p) => getAddress(p.vault) }),
    assetsPerShare: t.field({ type: "BigInt", description: P.assetsPerShare, resolve: (p) => p.assetsPerShare }),
    totalAssets: t.field({ type: "BigInt", description: P.totalAssets, resolve: (p) => p.totalAssets }),
    totalSupply: t.field({ type: "BigInt", description: P.totalSupply, resolve: (p) => p.totalSupply }),
    blockNumber: t.field({ type: "BigInt", resolve: (p) => p.blockNumber }),
    timestamp: t.string({ description: "ISO 8601", resolve: (p) => isoOf(p.timestamp) }),
  }),
});

entityConnection(sharePriceSpec, SharePriceRef, {
  args: (arg) => ({
    vault: arg({ type: VaultKey, deprecationReason: "Use where: { vaultKey }" }),
    range: arg({ type: RangeFilter, deprecationReason: "Use where: { blockNumber_gte, blockNumber_lte, … }" }),
  }),
  where: (a) => ({ vaultKey: a.vault, ...rangeWhere(a.range as Parameters<typeof rangeWhere>[0]) }),
});

entityConnection(shareBalanceSpec, ShareBalanceRef, {
  args: (arg) => ({
    vault: arg({ type: VaultKey, deprecationReason: "Use where: { vaultKey }" }),
    account: arg.string({ deprecationReason: "Use where: { account }" }),
    minShares: arg({ type: "BigInt", deprecationReason: "Use where: { shares_gte }" }),
  }),
  where: (a) => ({ vaultKey: a.vault, account: a.account, shares_gte: a.minShares }),
});
