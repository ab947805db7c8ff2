/** PSM swaps and reserve movements as the generic queries and the exports see them. */
import { PSM_RESERVE_MOVEMENT_COLUMNS as M, PSM_SWAP_COLUMNS as S, UNITS } from "@kusd/core";
import * as schema from "../../../ponder.schema.js";
import { type EntitySpec, eventSource } from "../query/entity.js";
import { column, eventColumns, idColumn, PSM_KEYS, SWAP_DIRECTIONS } from "./columns.js";

const psmKey = column("psmKey", "enum", S.psmKey, { values: PSM_KEYS, enumType: "PsmKey" });

export const psmSwapSpec: EntitySpec = {
  type: "PsmSwap",
  connection: "psmSwaps",
  description: "PSM swaps: mints (USDC → kUSD) and redemptions (kUSD → USDC).",
  columns: [
    idColumn("txHash-logIndex"),
    psmKey,
    column("psm", "hex-address", "The PSM's address"),
    column("direction", "enum", S.direction, { values: SWAP_DIRECTIONS, enumType: "SwapDirection" }),
    column("user", "hex-address", S.user),
    column("usdcAmount", "bigint", S.usdcAmount, { unit: UNITS.usdc }),
    column("kusdAmount", "bigint", S.kusdAmount, { unit: UNITS.kusd }),
    column("fee", "bigint", S.fee, { unit: UNITS.fee }),
    column("feeBps", "int", S.feeBps, { unit: UNITS.bps }),
    column("kusdBurned", "bigint", S.kusdBurned, { unit: UNITS.kusd }),
    ...eventColumns(true),
  ],
  key: ["blockNumber", "logIndex", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.psmSwap, "blockNumber"),
};

export const psmReserveMovementSpec: EntitySpec = {
  type: "PsmReserveMovement",
  connection: "psmReserveMovements",
  description: "USDC entering or leaving a PSM other than by a swap: topUp, skim, flashLoan or unexplained.",
  columns: [
    idColumn(M.id),
    psmKey,
    column("psm", "hex-address", M.psm),
    column("kind", "text", M.kind),
    column("direction", "text", M.direction),
    column("counterparty", "hex-address", M.counterparty),
    column("amount", "bigint", M.amount, { unit: UNITS.usdc }),
    ...eventColumns(false),
  ],
  key: ["blockNumber", "id"],
  blockColumn: "blockNumber",
  source: eventSource(schema.psmReserveMovement, "blockNumber"),
};
