/**
 * Shared node types: an Account (any address, with what the registry says of it and its
 * indexed balances and redemptions) and a PSM. Their SQL-backed fields go through DataLoaders.
 */

import type { PsmKey } from "@kusd/core";
import { ACCOUNT_BALANCE_COLUMNS, listedEntryAt, PSM_LABELS, SHARE_BALANCE_COLUMNS } from "@kusd/core";
import { getAddress } from "viem";
import { builder } from "./builder.js";
import { PsmKeyEnum } from "./enums.js";

export type AccountNode = { address: string };
export type PsmNode = { key: string; address: string };

const RegistryEntry = builder
  .objectRef<{ role: string; label: string; kind: string; registryVersion: number }>("RegistryListing")
  .implement({
    description: "How the account registry version in force lists an account.",
    fields: (t) => ({
      role: t.exposeString("role"),
      label: t.exposeString("label"),
      kind: t.exposeString("kind"),
      registryVersion: t.exposeInt("registryVersion"),
    }),
  });

const RedemptionSummary = builder
  .objectRef<{ count: number; kusdTotal: bigint; usdcTotal: bigint; feeTotal: bigint }>("RedemptionSummary")
  .implement({
    fields: (t) => ({
      count: t.exposeInt("count"),
      kusdTotal: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (s) => s.kusdTotal }),
      usdcTotal: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (s) => s.usdcTotal }),
      feeTotal: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (s) => s.feeTotal }),
    }),
  });

export const ShareBalanceRef = builder
  .objectRef<{ vault: string; vaultKey: string; account: string; shares: bigint }>("ShareBalance")
  .implement({
    fields: (t) => ({
      vault: t.string({ resolve: (b) => getAddress(b.vault) }),
      vaultKey: t.exposeString("vaultKey"),
      account: t.string({ resolve: (b) => getAddress(b.account) }),
      shares: t.field({
        type: "BigInt",
        description: SHARE_BALANCE_COLUMNS.shares,
        resolve: (b) => b.shares,
      }),
    }),
  });

export const TokenBalanceRef = builder
  .objectRef<{ token: string; tokenSymbol: string; account: string; balance: bigint; updatedBlock: bigint }>(
    "TokenBalance",
  )
  .implement({
    description: "A registry account's balance of a token, folded from the indexed transfers.",
    fields: (t) => ({
      token: t.string({ resolve: (b) => getAddress(b.token) }),
      tokenSymbol: t.exposeString("tokenSymbol"),
      account: t.string({ resolve: (b) => getAddress(b.account) }),
      balance: t.field({ type: "BigInt", description: ACCOUNT_BALANCE_COLUMNS.balance, resolve: (b) => b.balance }),
      updatedBlock: t.field({ type: "BigInt", resolve: (b) => b.updatedBlock }),
    }),
  });

export const AccountRef = builder.objectRef<AccountNode>("Account").implement({
  fields: (t) => ({
    address: t.string({ resolve: (a) => getAddress(a.address) }),
    registryListing: t.field({
      type: RegistryEntry,
      nullable: true,
      description: "The account's entry in the registry version in force now, if listed.",
      resolve: (a, _args, { reports }) => {
        const versions = reports.network.registry.versions;
        const e = listedEntryAt(versions, a.address as `0x${string}`, Math.floor(Date.now() / 1000));
        const v = Math.max(0, ...versions.map((x) => x.registry_version));
        return e ? { role: e.role, label: e.label, kind: e.kind, registryVersion: v } : null;
      },
    }),
    redemptionSummary: t.field({
      type: RedemptionSummary,
      resolve: (a, _args, { loaders }) => loaders.redemptionSummary.load(a.address.toLowerCase()),
    }),
    shareBalances: t.field({
      type: [ShareBalanceRef],
      resolve: (a, _args, { loaders }) => loaders.shareBalances.load(a.address.toLowerCase()),
    }),
    tokenBalances: t.field({
      type: [TokenBalanceRef],
      resolve: (a, _args, { loaders }) => loaders.tokenBalances.load(a.address.toLowerCase()),
    }),
  }),
});

const PsmStats = builder
  .objectRef<{
    mints: number;
    redemptions: number;
    usdcIn: bigint;
    usdcOut: bigint;
    kusdMinted: bigint;
    kusdRedeemed: bigint;
  }>("PsmSwapStats")
  .implement({
    fields: (t) => ({
      mints: t.exposeInt("mints"),
      redemptions: t.exposeInt("redemptions"),
      usdcIn: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (s) => s.usdcIn }),
      usdcOut: t.field({ type: "BigInt", description: "USDC, 6 decimals", resolve: (s) => s.usdcOut }),
      kusdMinted: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (s) => s.kusdMinted }),
      kusdRedeemed: t.field({ type: "BigInt", description: "kUSD, 18 decimals", resolve: (s) => s.kusdRedeemed }),
    }),
  });

export { PsmKeyEnum };

export const PsmRef = builder.objectRef<PsmNode>("Psm").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    address: t.string({ resolve: (p) => getAddress(p.address) }),
    label: t.string({ resolve: (p) => PSM_LABELS[p.key as PsmKey]?.label ?? p.key }),
    swapStats: t.field({
      type: PsmStats,
      description: "All indexed swaps of this PSM.",
      resolve: (p, _a, { loaders }) => loaders.psmStats.load(p.key),
    }),
  }),
});
