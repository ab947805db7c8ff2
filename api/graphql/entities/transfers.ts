/** Transfers touching registry accounts, their balances, and registry violations. */
import { eq, gte, or } from "drizzle-orm";
import { getAddress } from "viem";
import { tokenDecimals } from "../../../core/reserves/units.js";
import * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { connectionOf, type Keyset, keysetPage, OrderDirection } from "../connection.js";
import { RangeFilter, rangeConditions } from "../filters.js";
import { address, isoOf } from "../inputs.js";
import { TokenBalanceRef } from "../nodes.js";

type Transfer = typeof schema.registryTransfer.$inferSelect;
type Balance = typeof schema.accountBalance.$inferSelect;

const transferKey: Keyset<Transfer> = {
  columns: [schema.registryTransfer.blockNumber, schema.registryTransfer.logIndex],
  types: ["bigint", "int"],
  of: (r) => [r.blockNumber, r.logIndex],
};
/** Always ascending: tokenBalances takes no orderDirection. */
const balanceKey: Keyset<Balance> = { columns: [schema.accountBalance.id], types: ["text"], of: (r) => [r.id] };

const TransferRef = builder.objectRef<Transfer>("RegistryTransfer").implement({
  description:
    "A USDC, kUSD, WETH or skUSD-share transfer with a registry account on either side, classified by spec 2.6 rule 2.",
  fields: (t) => ({
    id: t.exposeString("id"),
    token: t.string({ resolve: (x) => getAddress(x.token) }),
    tokenSymbol: t.exposeString("tokenSymbol"),
    decimals: t.int({ resolve: (x) => tokenDecimals(x.tokenSymbol) }),
    from: t.string({ resolve: (x) => getAddress(x.from) }),
    to: t.string({ resolve: (x) => getAddress(x.to) }),
    amount: t.field({ type: "BigInt", description: "Raw units; see decimals", resolve: (x) => x.amount }),
    fromListed: t.exposeBoolean("fromListed"),
    toListed: t.exposeBoolean("toListed"),
    classification: t.exposeString("classification", {
      description:
        "inbound | internal | burn | disclosed_venue_deposit | redemption_payout | mint_payout | vault_withdrawal | flash_loan | violation",
    }),
    registryVersion: t.exposeInt("registryVersion", { nullable: true }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (x) => x.blockNumber }),
    logIndex: t.exposeInt("logIndex"),
    timestamp: t.string({ resolve: (x) => isoOf(x.timestamp) }),
  }),
});

const TransferFilter = builder.inputType("RegistryTransferFilter", {
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

builder.queryField("registryTransfers", (t) =>
  t.field({
    type: connectionOf<Transfer>("RegistryTransfer", TransferRef),
    args: {
      filter: t.arg({ type: TransferFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const x = schema.registryTransfer;
      const f = args.filter ?? {};
      const filters = () => {
        const [from, to, account] = [
          address(f.from, "filter.from"),
          address(f.to, "filter.to"),
          address(f.account, "filter.account"),
        ];
        return [
          f.tokenSymbol ? eq(x.tokenSymbol, f.tokenSymbol) : undefined,
          from ? eq(x.from, from) : undefined,
          to ? eq(x.to, to) : undefined,
          account ? or(eq(x.from, account), eq(x.to, account)) : undefined,
          f.classification ? eq(x.classification, f.classification) : undefined,
          f.minAmount != null ? gte(x.amount, f.minAmount) : undefined,
          ...rangeConditions(f.range, x.blockNumber, x.timestamp),
        ];
      };
      return keysetPage(args, transferKey, filters, (q) =>
        reports.db
          .select()
          .from(x)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

builder.queryField("tokenBalances", (t) =>
  t.field({
    type: connectionOf("TokenBalance", TokenBalanceRef),
    description: "Balances of registry accounts, folded from the indexed transfers (and WETH wraps).",
    args: { account: t.arg.string(), tokenSymbol: t.arg.string(), first: t.arg.int(), after: t.arg.string() },
    resolve: (_root, args, { reports }) => {
      const b = schema.accountBalance;
      const filters = () => {
        const account = address(args.account, "account");
        return [
          account ? eq(b.account, account) : undefined,
          args.tokenSymbol ? eq(b.tokenSymbol, args.tokenSymbol) : undefined,
        ];
      };
      return keysetPage(args, balanceKey, filters, (q) =>
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
