import type { Context } from "ponder:registry";
import { balanceChange } from "ponder:schema";
import type { Address } from "viem";

/** Where a balance moved: the log, so a past block's balance is the sum of the changes up to it. */
export type ChangeAt = { blockNumber: bigint; logIndex: number };

type Change = {
  kind: "share" | "token";
  asset: Address;
  assetKey: string;
  account: Address;
  delta: bigint;
  /** Which side of the log: a self-transfer moves one balance twice in one log, one row each. */
  side: "from" | "to";
  at: ChangeAt;
};

/** The key of a change: short (it is held in the indexing cache and written with the row) and one per side of a log. */
export function balanceChangeId(c: Pick<Change, "kind" | "side" | "at">): string {
  return `${c.kind === "share" ? "s" : "t"}${c.at.blockNumber}:${c.at.logIndex}${c.side === "from" ? "f" : "t"}`;
}

/**
 * Appends to the balance history `balance_change`, which the balance views sum. It reads nothing:
 * no row can already have the key, so the store has nothing to look up.
 */
export async function recordBalanceChange(context: Context, c: Change): Promise<void> {
  await context.db.insert(balanceChange).values({
    id: balanceChangeId(c),
    kind: c.kind,
    asset: c.asset,
    assetKey: c.assetKey,
    account: c.account,
    delta: c.delta,
    blockNumber: c.at.blockNumber,
    logIndex: c.at.logIndex,
  });
}
