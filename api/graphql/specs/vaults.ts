/** Vault events, share prices and share balances as the generic queries and the exports see them. */
import { SHARE_BALANCE_COLUMNS as B, SHARE_PRICE_COLUMNS as P, UNITS, VAULT_EVENT_COLUMNS as V } from "@kusd/core";
import * as schema from "../../../ponder.schema.js";
import { shareBalancesAt } from "../../io/state-at-block.js";
import { type EntitySpec, eventSource, historySource } from "../query/entity.js";
import { column, eventColumns, idColumn, VAULT_KEYS } from "./columns.js";

const vaultKey = (description: string) =>
  column("vaultKey", "enum", description, { values: VAULT_KEYS, enumType: "VaultKey" });

export const vaultEventSpec: EntitySpec = {
  type: "VaultEvent",
  connection: "vaultEvents",
  description: "Deposits, withdrawals, share transfers, yield and the queue events of every vault.",
  columns: [
    idColumn(),
    vaultKey(V.vaultKey),
    column("vault", "hex-address", V.vault),
    column("kind", "text", V.kind),
    column("sender", "hex-address", V.sender, { nullable: true }),
    column("from", "hex-address", V.from, { nullable: true }),
    column("to", "hex-address", V.to, { nullable: true }),
    column("assets", "bigint", V.assets, { nullable: true, unit: UNITS.assets }),
    column("shares", "bigint", V.shares, { nullable: true, unit: UNITS.shares }),
    ...eventColumns(true),
  ],
  key: ["blockNumber", "logIndex", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.vaultEvent, "blockNumber"),
};

export const sharePriceSpec: EntitySpec = {
  type: "SharePrice",
  connection: "sharePrices",
  description: "convertToAssets(1e24) of each staking vault, every sharePriceInterval blocks.",
  columns: [
    idColumn(P.id),
    vaultKey(P.vaultKey),
    column("vault", "hex-address", P.vault),
    column("assetsPerShare", "bigint", P.assetsPerShare, { unit: UNITS.kusdPerShare }),
    column("totalAssets", "bigint", P.totalAssets, { unit: UNITS.kusd }),
    column("totalSupply", "bigint", P.totalSupply, { unit: "shares, 24 decimals raw" }),
    ...eventColumns(false).filter((c) => c.name !== "txHash"),
  ],
  key: ["blockNumber", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.sharePrice, "blockNumber"),
};

export const shareBalanceSpec: EntitySpec = {
  type: "ShareBalance",
  connection: "shareBalances",
  description: "Share balances of every holder of every vault.",
  columns: [
    idColumn(B.id),
    column("vault", "hex-address", B.vault),
    vaultKey(B.vaultKey),
    column("account", "hex-address", B.account),
    column("shares", "bigint", B.shares, { unit: UNITS.shares }),
  ],
  key: ["id"],
  source: historySource(schema.shareBalance, shareBalancesAt),
};
