import type { Context } from "ponder:registry";
import { balanceChange } from "ponder:schema";
import type { Address } from "viem";

/** Where a balance moved: the log, so a past block's balance is the last change at or before it. */
export type ChangeAt = { eventId: string; blockNumber: bigint; logIndex: number };

type Change = {
  kind: "share" | "token";
  asset: Address;
  assetKey: string;
  account: Address;
  delta: bigint;
  after: bigint;
  at: ChangeAt;
};

/**
 * Appends the balance history `balance_change` that past-block queries read. A self-transfer
 * moves one balance twice in one log: the second move folds into the first row.
 */
export async function recordBalanceChange(context: Context, c: Change): Promise<void> {
  await context.db
    .insert(balanceChange)
    .values({
      id: `${c.kind}:${c.asset}:${c.account}:${c.at.eventId}`,
      kind: c.kind,
      asset: c.asset,
      assetKey: c.assetKey,
      account: c.account,
      delta: c.delta,
      balanceAfter: c.after,
      blockNumber: c.at.blockNumber,
      logIndex: c.at.logIndex,
    })
    .onConflictDoUpdate((row) => ({ delta: row.delta + c.delta, balanceAfter: c.after }));
}
