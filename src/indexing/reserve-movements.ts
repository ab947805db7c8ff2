import type { Context } from "ponder:registry";
import { psmReserveMovement } from "ponder:schema";
import type { Address, Hex } from "viem";
import { psmKeyOf } from "./lookup.js";

export const movementId = (txHash: Hex, psm: Address, direction: "in" | "out") => `${txHash}:${psm}:${direction}`;

/**
 * Records USDC entering or leaving a PSM. Provisional kinds (a later event of the same
 * transaction may refine them): in → topUp, out → unexplained; a swap removes its own leg,
 * SurplusSkimmed turns an out into a skim, and an in that returns an out of the same
 * transaction to the same counterparty makes both a flash loan.
 */
export async function recordPsmUsdc(
  context: Context,
  args: { psm: Address; direction: "in" | "out"; counterparty: Address; amount: bigint; txHash: Hex; blockNumber: bigint; timestamp: bigint },
) {
  const id = movementId(args.txHash, args.psm, args.direction);
  const out = args.direction === "in" ? await context.db.find(psmReserveMovement, { id: movementId(args.txHash, args.psm, "out") }) : null;
  const flashLoan = out !== null && out.counterparty === args.counterparty && args.amount >= out.amount;
  const kind = flashLoan ? "flashLoan" : args.direction === "in" ? "topUp" : "unexplained";
  await context.db
    .insert(psmReserveMovement)
    .values({ id, psmKey: psmKeyOf(args.psm) ?? "unknown", psm: args.psm, kind, direction: args.direction, counterparty: args.counterparty, amount: args.amount, txHash: args.txHash, blockNumber: args.blockNumber, timestamp: args.timestamp })
    .onConflictDoUpdate((row) => ({ amount: row.amount + args.amount }));
  if (flashLoan) await context.db.update(psmReserveMovement, { id: out.id }).set({ kind: "flashLoan" });
}
