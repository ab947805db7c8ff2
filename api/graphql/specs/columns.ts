/** Shorthands for writing entity specs: a column of a kind, and the columns every event table has. */
import { EVENT_COLUMNS, UNITS } from "@kusd/core";
import type { ColumnKind, ColumnSpec } from "../query/entity.js";

export const column = (
  name: string,
  kind: ColumnKind,
  description: string,
  extra: Partial<Omit<ColumnSpec, "name" | "kind" | "description">> = {},
): ColumnSpec => ({ name, kind, description, ...extra });

export const PSM_KEYS = ["psmMint", "psmRetiredMint", "psmRedeemReserve"] as const;
export const VAULT_KEYS = ["skUSD", "skUSDDeprecated", "vaultV1", "vaultV2"] as const;
export const SWAP_DIRECTIONS = ["mint", "redeem"] as const;

export const idColumn = (description: string = EVENT_COLUMNS.id) => column("id", "text", description);

/** txHash, blockNumber, timestamp (and logIndex where the table has it), as every event table stores them. */
export function eventColumns(withLogIndex: boolean): ColumnSpec[] {
  return [
    column("txHash", "hex-hash", EVENT_COLUMNS.txHash),
    column("blockNumber", "bigint", EVENT_COLUMNS.blockNumber, { unit: UNITS.block }),
    column("timestamp", "timestamp", EVENT_COLUMNS.timestamp, { unit: UNITS.time }),
    ...(withLogIndex ? [column("logIndex", "int", EVENT_COLUMNS.logIndex)] : []),
  ];
}
