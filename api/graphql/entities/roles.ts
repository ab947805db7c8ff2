/** Role grants and revocations, and the holders they imply. */
import { and, asc, desc, eq } from "drizzle-orm";
import { getAddress } from "viem";
import * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { afterKey, connectionOf, OrderDirection, toPage } from "../connection.js";
import { present, RangeFilter, rangeConditions } from "../filters.js";
import { address, isoOf, pageSize } from "../inputs.js";

type RoleEvent = typeof schema.roleEvent.$inferSelect;
type RoleHolder = typeof schema.roleHolder.$inferSelect;

const RoleEventRef = builder.objectRef<RoleEvent>("RoleEvent").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    contractKey: t.exposeString("contractKey"),
    contract: t.string({ resolve: (e) => getAddress(e.contract) }),
    role: t.exposeString("role"),
    roleName: t.exposeString("roleName", { nullable: true }),
    account: t.string({ resolve: (e) => getAddress(e.account) }),
    sender: t.string({ resolve: (e) => getAddress(e.sender) }),
    granted: t.exposeBoolean("granted"),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (e) => e.blockNumber }),
    timestamp: t.string({ resolve: (e) => isoOf(e.timestamp) }),
  }),
});

const RoleHolderRef = builder.objectRef<RoleHolder>("RoleHolder").implement({
  fields: (t) => ({
    contractKey: t.exposeString("contractKey"),
    contract: t.string({ resolve: (h) => getAddress(h.contract) }),
    role: t.exposeString("role"),
    roleName: t.exposeString("roleName", { nullable: true }),
    account: t.string({ resolve: (h) => getAddress(h.account) }),
    active: t.exposeBoolean("active"),
    sinceBlock: t.field({ type: "BigInt", resolve: (h) => h.sinceBlock }),
  }),
});

const RoleFilter = builder.inputType("RoleFilter", {
  fields: (t) => ({
    contractKey: t.string({ description: "kUSD, psmMint, psmRetiredMint, psmRedeemReserve, skUSD, vaultV1, …" }),
    roleName: t.string({ description: "MINTER_ROLE, DEFAULT_ADMIN_ROLE, …" }),
    account: t.string(),
    granted: t.boolean(),
    range: t.field({ type: RangeFilter }),
  }),
});

builder.queryField("roleEvents", (t) =>
  t.field({
    type: connectionOf<RoleEvent>("RoleEvent", RoleEventRef),
    args: { filter: t.arg({ type: RoleFilter }), orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }), first: t.arg.int(), after: t.arg.string() },
    resolve: async (_root, args, { reports }) => {
      const first = pageSize(args.first);
      const isDesc = args.orderDirection === "DESC";
      const e = schema.roleEvent;
      const f = args.filter ?? {};
      const account = address(f.account, "filter.account");
      const where = and(...present([
        f.contractKey ? eq(e.contractKey, f.contractKey) : undefined,
        f.roleName ? eq(e.roleName, f.roleName) : undefined,
        account ? eq(e.account, account) : undefined,
        f.granted != null ? eq(e.granted, f.granted) : undefined,
        ...rangeConditions(f.range, e.blockNumber, e.timestamp),
        afterKey([e.blockNumber, e.id], args.after, isDesc, ["bigint", "text"]),
      ]));
      const order = isDesc ? [desc(e.blockNumber), desc(e.id)] : [asc(e.blockNumber), asc(e.id)];
      const rows = await reports.db.select().from(e).where(where).orderBy(...order).limit(first + 1);
      return toPage(rows, first, (r) => [r.blockNumber, r.id], !!args.after);
    },
  }),
);

builder.queryField("roleHolders", (t) =>
  t.field({
    type: connectionOf<RoleHolder>("RoleHolder", RoleHolderRef),
    args: { contractKey: t.arg.string(), roleName: t.arg.string(), account: t.arg.string(), active: t.arg.boolean(), first: t.arg.int(), after: t.arg.string() },
    resolve: async (_root, args, { reports }) => {
      const first = pageSize(args.first);
      const h = schema.roleHolder;
      const account = address(args.account, "account");
      const where = and(...present([
        args.contractKey ? eq(h.contractKey, args.contractKey) : undefined,
        args.roleName ? eq(h.roleName, args.roleName) : undefined,
        account ? eq(h.account, account) : undefined,
        args.active != null ? eq(h.active, args.active) : undefined,
        afterKey([h.id], args.after, false, ["text"]),
      ]));
      const rows = await reports.db.select().from(h).where(where).orderBy(asc(h.id)).limit(first + 1);
      return toPage(rows, first, (r) => [r.id], !!args.after);
    },
  }),
);
