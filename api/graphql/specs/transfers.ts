/** Registry transfers, registry account balances and violations as the generic queries and the exports see them. */
import {
  ACCOUNT_BALANCE_COLUMNS as B,
  REGISTRY_TRANSFER_COLUMNS as T,
  UNITS,
  REGISTRY_VIOLATION_COLUMNS as V,
} from "@kusd/core";
import * as schema from "../../../ponder.schema.js";
import { accountBalancesAt } from "../../io/state-at-block.js";
import { type EntitySpec, eventSource, historySource } from "../query/entity.js";
import { column, eventColumns, idColumn } from "./columns.js";

export const registryTransferSpec: EntitySpec = {
  type: "RegistryTransfer",
  connection: "registryTransfers",
  description: "USDC, kUSD, WETH and skUSD-share transfers with a registry account on either side.",
  columns: [
    idColumn(),
    column("token", "hex-address", T.token),
    column("tokenSymbol", "text", T.tokenSymbol),
    column("from", "hex-address", T.from),
    column("to", "hex-address", T.to),
    column("amount", "bigint", T.amount, { unit: UNITS.tokenRaw }),
    column("fromListed", "boolean", T.fromListed),
    column("toListed", "boolean", T.toListed),
    column("classification", "text", T.classification),
    column("registryVersion", "int", T.registryVersion, { nullable: true }),
    ...eventColumns(true),
  ],
  key: ["blockNumber", "logIndex", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.registryTransfer, "blockNumber"),
};

export const tokenBalanceSpec: EntitySpec = {
  type: "TokenBalance",
  connection: "tokenBalances",
  description: "Balances of registry accounts, folded from the indexed transfers (and WETH wraps).",
  columns: [
    idColumn(B.id),
    column("token", "hex-address", B.token),
    column("tokenSymbol", "text", B.tokenSymbol),
    column("account", "hex-address", B.account),
    column("balance", "bigint", B.balance, { unit: UNITS.tokenRaw }),
    column("updatedBlock", "bigint", B.updatedBlock, { unit: UNITS.block }),
  ],
  key: ["id"],
  source: historySource(schema.accountBalance, accountBalancesAt),
};

export const violationSpec: EntitySpec = {
  type: "Violation",
  connection: "violations",
  description: "Transfers out of a registry-listed account that no allowed pattern explains (spec 2.6 rule 2).",
  columns: [
    idColumn(V.id),
    column("transferId", "text", V.transferId),
    column("token", "hex-address", V.token),
    column("tokenSymbol", "text", V.tokenSymbol),
    column("from", "hex-address", V.from),
    column("to", "hex-address", V.to),
    column("amount", "bigint", V.amount, { unit: UNITS.tokenRaw }),
    column("registryVersion", "int", V.registryVersion),
    ...eventColumns(true),
  ],
  key: ["blockNumber", "logIndex", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.registryViolation, "blockNumber"),
};
