/** Transfers touching registry accounts, and the registry accounts' balances. */

import { REGISTRY_TRANSFER_COLUMNS as T, tokenDecimals } from "@kusd/core";
import { getAddress } from "viem";
import type * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { entityConnection } from "../entity-field.js";
import { RangeFilter, rangeWhere } from "../filters.js";
import { isoOf } from "../inputs.js";
import { TokenBalanceRef } from "../nodes.js";
import { registryTransferSpec, tokenBalanceSpec } from "../specs/transfers.js";

type Transfer = typeof schema.registryTransfer.$inferSelect;

export const TransferRef = builder.objectRef<Transfer>("RegistryTransfer").implement({
  description:
    "A USDC, kUSD, WETH or skUSD-share transfer with a registry account on either side, classified by spec 2.6 rule 2.",
  fields: (t) => ({
    id: t.exposeString("id"),
    token: t.string({ resolve: (x) => getAddress(x.token) }),
    tokenSymbol: t.exposeString("tokenSymbol", { description: T.tokenSymbol }),
    decimals: t.int({ description: "The token's decimals", resolve: (x) => tokenDecimals(x.tokenSymbol) }),
    from: t.string({ resolve: (x) => getAddress(x.from) }),
    to: t.string({ resolve: (x) => getAddress(x.to) }),
    amount: t.field({ type: "BigInt", description: "Raw units; see decimals", resolve: (x) => x.amount }),
    fromListed: t.exposeBoolean("fromListed", { description: T.fromListed }),
    toListed: t.exposeBoolean("toListed", { description: T.toListed }),
    classification: t.exposeString("classification", { description: T.classification }),
    registryVersion: t.exposeInt("registryVersion", { nullable: true, description: T.registryVersion }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (x) => x.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({ description: "ISO 8601", resolve: (x) => isoOf(x.timestamp) }),
  }),
});

const TransferFilter = builder.inputType("RegistryTransferFilter", {
  description: "Deprecated: use where (RegistryTransfer_filter).",
  fields: (t) => ({
    tokenSymbol: t.string({ description: "USDC | kUSD | WETH | skUSD | skUSD-v1" }),
    from: t.string(),
    to: t.string(),
    account: t.string({ description: "Either side" }),
    classification: t.string(),
    range: t.field({ type: RangeFilter }),
    minAmount: t.field({ type: "BigInt", description: "Raw units" }),
  }),
});

type TransferFilterValue = typeof TransferFilter.$inferInput;

entityConnection(registryTransferSpec, TransferRef, {
  args: (arg) => ({
    filter: arg({
      type: TransferFilter,
      deprecationReason: "Use where: { tokenSymbol, from, to, OR: [{ from }, { to }], classification, amount_gte, … }",
    }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as TransferFilterValue;
    return {
      tokenSymbol: f.tokenSymbol || undefined,
      from: f.from,
      to: f.to,
      OR: f.account == null ? undefined : [{ from: f.account }, { to: f.account }],
      classification: f.classification || undefined,
      amount_gte: f.minAmount,
      ...rangeWhere(f.range),
    };
  },
});

entityConnection(tokenBalanceSpec, TokenBalanceRef, {
  args: (arg) => ({
    account: arg.string({ deprecationReason: "Use where: { account }" }),
    tokenSymbol: arg.string({ deprecationReason: "Use where: { tokenSymbol }" }),
  }),
  where: (a) => ({ account: a.account, tokenSymbol: a.tokenSymbol || undefined }),
});
