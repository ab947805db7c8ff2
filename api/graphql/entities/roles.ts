/** Role grants and revocations, and the holders they imply. */

import { ROLE_EVENT_COLUMNS as E, ROLE_HOLDER_COLUMNS as H } from "@kusd/core";
import { getAddress } from "viem";
import type * as schema from "../../../ponder.schema.js";
import { builder } from "../builder.js";
import { entityConnection } from "../entity-field.js";
import { RangeFilter, rangeWhere } from "../filters.js";
import { isoOf } from "../inputs.js";
import { roleEventSpec, roleHolderSpec } from "../specs/roles.js";

type RoleEvent = typeof schema.roleEvent.$inferSelect;
type RoleHolder = typeof schema.roleHolder.$inferSelect;

export const RoleEventRef = builder.objectRef<RoleEvent>("RoleEvent").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    contractKey: t.exposeString("contractKey", { description: E.contractKey }),
    contract: t.string({ resolve: (e) => getAddress(e.contract) }),
    role: t.exposeString("role", { description: E.role }),
    roleName: t.exposeString("roleName", { nullable: true, description: E.roleName }),
    account: t.string({ resolve: (e) => getAddress(e.account) }),
    sender: t.string({ description: E.sender, resolve: (e) => getAddress(e.sender) }),
    granted: t.exposeBoolean("granted", { description: E.granted }),
    txHash: t.exposeString("txHash"),
    blockNumber: t.field({ type: "BigInt", resolve: (e) => e.blockNumber }),
    timestamp: t.string({ description: "ISO 8601", resolve: (e) => isoOf(e.timestamp) }),
  }),
});

const RoleHolderRef = builder.objectRef<RoleHolder>("RoleHolder").implement({
  fields: (t) => ({
    contractKey: t.exposeString("contractKey"),
    contract: t.string({ resolve: (h) => getAddress(h.contract) }),
    role: t.exposeString("role"),
    roleName: t.exposeString("roleName", { nullable: true }),
    account: t.string({ resolve: (h) => getAddress(h.account) }),
    active: t.exposeBoolean("active", { description: H.active }),
    sinceBlock: t.field({ type: "BigInt", description: H.sinceBlock, resolve: (h) => h.sinceBlock }),
  }),
});

const RoleFilter = builder.inputType("RoleFilter", {
  description: "Deprecated: use where (RoleEvent_filter).",
  fields: (t) => ({
    contractKey: t.string({ description: "kUSD, psmMint, psmRetiredMint, psmRedeemReserve, skUSD, vaultV1, …" }),
    roleName: t.string({ description: "MINTER_ROLE, DEFAULT_ADMIN_ROLE, …" }),
    account: t.string(),
    granted: t.boolean(),
    range: t.field({ type: RangeFilter }),
  }),
});

type RoleFilterValue = typeof RoleFilter.$inferInput;

entityConnection(roleEventSpec, RoleEventRef, {
  args: (arg) => ({
    filter: arg({ type: RoleFilter, deprecationReason: "Use where: { contractKey, roleName, account, granted, … }" }),
  }),
  where: ({ filter }) => {
    const f = (filter ?? {}) as RoleFilterValue;
    return {
      contractKey: f.contractKey || undefined,
      roleName: f.roleName || undefined,
      account: f.account,
      granted: f.granted,
      ...rangeWhere(f.range),
    };
  },
});

entityConnection(roleHolderSpec, RoleHolderRef, {
  args: (arg) => ({
    contractKey: arg.string({ deprecationReason: "Use where: { contractKey }" }),
    roleName: arg.string({ deprecationReason: "Use where: { roleName }" }),
    account: arg.string({ deprecationReason: "Use where: { account }" }),
    active: arg.boolean({ deprecationReason: "Use where: { active }" }),
  }),
  where: (a) => ({
    contractKey: a.contractKey || undefined,
    roleName: a.roleName || undefined,
    account: a.account,
    active: a.active,
  }),
});
