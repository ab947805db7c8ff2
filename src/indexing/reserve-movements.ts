import type { Context } from "ponder:registry";
import { psmReserveMovement } from "ponder:schema";
import { type Address, type Hex, toFunctionSelector } from "viem";
import { psmKeyOf } from "./lookup.js";

export const movementId = (txHash: Hex, psm: Address, direction: "in" | "out") => `${txHash}:${psm}:${direction}`;

const SWAP_SELECTORS = new Set(
  [
    "swapStableForKUSD(address,uint256)",
    "swapStableForKUSDTo(address,uint256,address)",
    "swapKUSDForStable(address,uint256)",
    "swapKUSDForStableTo(address,uint256,address)",
  ].map((signature) => toFunctionSelector(signature)),
);

/**
 * True when the transaction is a direct swap call on `psm`: its USDC leg is a swap, not a
 * reserve movement, and is never recorded. A swap made through another contract is recorded
 * provisionally and removed by the Swap handler.
 */
export function isDirectSwapCall(tx: { to: Address | null; input: Hex }, psm: Address): boolean {
  return tx.to !== null && tx.to.toLowerCase() === psm && SWAP_SELECTORS.has(tx.input.slice(0, 10) as Hex);
}

// Out-legs recorded by this process, so an in-leg looks for a flash loan only when one may
// exist. Both legs of a flash loan are in one transaction, hence one block, which Ponder
// always replays whole; the set is rebuilt from that replay after a restart.
const outLegs = new Set<string>();

/**
 * Records USDC entering or leaving a PSM. Provisional kinds (a later event of the same
 * transaction may refine them): in → topUp, out → unexplained; a swap removes its own leg,
 * SurplusSkimmed turns an out into a skim, and an in that returns an out of the same
 * transaction to the same counterparty makes both a flash loan.
 */
export async function recordPsmUsdc(
  context: Context,
  args: {
    psm: Address;
    direction: "in" | "out";
    counterparty: Address;
    amount: bigint;
    txHash: Hex;
    blockNumber: bigint;
    timestamp: bigint;
  },
) {
  const id = movementId(args.txHash, args.psm, args.direction);
  const outId = movementId(args.txHash, args.psm, "out");
  if (args.direction === "out") {
    if (outLegs.size > 10_000) outLegs.clear();
    outLegs.add(outId);
  }
  const out =
    args.direction === "in" && outLegs.has(outId) ? await context.db.find(psmReserveMovement, { id: outId }) : null;
  const flashLoan = out !== null && out.counterparty === args.counterparty && args.amount >= out.amount;
  const kind = flashLoan ? "flashLoan" : args.direction === "in" ? "topUp" : "unexplained";
  await context.db
    .insert(psmReserveMovement)
    .values({
      id,
      psmKey: psmKeyOf(args.psm) ?? "unknown",
      psm: args.psm,
      kind,
      direction: args.direction,
      counterparty: args.counterparty,
      amount: args.amount,
      txHash: args.txHash,
      blockNumber: args.blockNumber,
      timestamp: args.timestamp,
    })
    .onConflictDoUpdate((row) => ({ amount: row.amount + args.amount }));
  if (flashLoan) await context.db.update(psmReserveMovement, { id: out.id }).set({ kind: "flashLoan" });
}
