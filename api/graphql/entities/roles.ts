/** Role grants and revocations, and the holders they imply. */
import { eq } from "drizzle-orm";
import { getAddress } from "viem";
import * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { connectionOf, type Keyset, keysetPage, OrderDirection } from "../connection.js";
import { RangeFilter, rangeConditions } from "../filters.js";
import { address, isoOf } from "../inputs.js";

type RoleEvent = typeof schema.roleEvent.$inferSelect;
type RoleHolder = typeof schema.roleHolder.$inferSelect;

const roleEventKey: Keyset<RoleEvent> = {
  columns: [schema.roleEvent.blockNumber, schema.roleEvent.id],
  types: ["bigint", "text"],
  of: (r) => [r.blockNumber, r.id],
};
/** Always ascending: roleHolders takes no orderDirection. */
const roleHolderKey: Keyset<RoleHolder> = { columns: [schema.roleHolder.id], types: ["text"], of: (r) => [r.id] };

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
    args: {
      filter: t.arg({ type: RoleFilter }),
      orderDirection: t.arg({ type: OrderDirection, defaultValue: "ASC" }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const e = schema.roleEvent;
      const f = args.filter ?? {};
      const filters = () => {
        const account = address(f.account, "filter.account");
        return [
          f.contractKey ? eq(e.contractKey, f.contractKey) : undefined,
          f.roleName ? eq(e.roleName, f.roleName) : undefined,
          account ? eq(e.account, account) : undefined,
          f.granted != null ? eq(e.granted, f.granted) : undefined,
          ...rangeConditions(f.range, e.blockNumber, e.timestamp),
        ];
      };
      return keysetPage(args, roleEventKey, filters, (q) =>
        reports.db
          .select()
          .from(e)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);

builder.queryField("roleHolders", (t) =>
  t.field({
    type: connectionOf<RoleHolder>("RoleHolder", RoleHolderRef),
    args: {
      contractKey: t.arg.string(),
      roleName: t.arg.string(),
      account: t.arg.string(),
      active: t.arg.boolean(),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, { reports }) => {
      const h = schema.roleHolder;
      const filters = () => {
        const account = address(args.account, "account");
        return [
          args.contractKey ? eq(h.contractKey, args.contractKey) : undefined,
          args.roleName ? eq(h.roleName, args.roleName) : undefined,
          account ? eq(h.account, account) : undefined,
          args.active != null ? eq(h.active, args.active) : undefined,
        ];
      };
      return keysetPage(args, roleHolderKey, filters, (q) =>
        reports.db
          .select()
          .from(h)
          .where(q.where)
          .orderBy(...q.orderBy)
          .limit(q.limit),
      );
    },
  }),
);
