/** Role events and role holders as the generic queries and the exports see them. */
import { ROLE_EVENT_COLUMNS as E, ROLE_HOLDER_COLUMNS as H, UNITS } from "@kusd/core";
import * as schema from "../../../ponder.schema.js";
import { roleHoldersAtBlock } from "../../io/state-at-block.js";
import { type EntitySpec, eventSource, historySource } from "../query/entity.js";
import { column, eventColumns, idColumn } from "./columns.js";

export const roleEventSpec: EntitySpec = {
  type: "RoleEvent",
  connection: "roleEvents",
  description: "RoleGranted and RoleRevoked on kUSD, the PSMs and the vaults.",
  columns: [
    idColumn(),
    column("contractKey", "text", E.contractKey),
    column("contract", "hex-address", E.contract),
    column("role", "hex-hash", E.role),
    column("roleName", "text", E.roleName, { nullable: true }),
    column("account", "hex-address", E.account),
    column("sender", "hex-address", E.sender),
    column("granted", "boolean", E.granted),
    ...eventColumns(false),
  ],
  key: ["blockNumber", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.roleEvent, "blockNumber"),
};

export const roleHolderSpec: EntitySpec = {
  type: "RoleHolder",
  connection: "roleHolders",
  description: "Who holds (or held) which role, as the role events imply.",
  columns: [
    idColumn(H.id),
    column("contractKey", "text", H.contractKey),
    column("contract", "hex-address", H.contract),
    column("role", "hex-hash", H.role),
    column("roleName", "text", H.roleName, { nullable: true }),
    column("account", "hex-address", H.account),
    column("active", "boolean", H.active),
    column("sinceBlock", "bigint", H.sinceBlock, { unit: UNITS.block }),
  ],
  key: ["id"],
  source: historySource(schema.roleHolder, roleHoldersAtBlock),
};
