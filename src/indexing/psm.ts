import { type Context, ponder } from "ponder:registry";
import { kusdTxBurn, psmParameterEvent, psmPauseEvent, psmReserveMovement, psmSwap } from "ponder:schema";
import { explains, swapAmounts } from "@kusd/core";
import type { Address, Hex } from "viem";
import { logKey, logPlace } from "./event-row.js";
import { lower, network, psmKeyOf } from "./lookup.js";
import { isDirectSwapCall, movementId } from "./reserve-movements.js";
import { explainCandidate, txBurnId } from "./transfers.js";

ponder.on("PSM:Swap", async ({ event, context }) => {
  const psm = lower(event.log.address);
  const { user, fromToken, amount, fee } = event.args;
  const direction = lower(fromToken) === lower(network.kUSD.address) ? "redeem" : "mint";
  const amounts = swapAmounts(direction, amount, fee);
  // The live PSM burns what it redeems while minting is enabled; its burn (a kUSD Transfer to
  // zero from the PSM) comes earlier in the same transaction. v1 and v3 never burn.
  const psmKey = psmKeyOf(psm) ?? "unknown";
  const at = { blockNumber: event.block.number, transactionIndex: event.transaction.transactionIndex };
  const burned = direction === "redeem" ? await context.db.find(kusdTxBurn, { id: txBurnId(at, psmKey) }) : null;
  await context.db.insert(psmSwap).values({
    id: logKey(event),
    psmKey,
    psm,
    direction,
    user: lower(user),
    ...amounts,
    fee,
    kusdBurned: burned?.amount ?? 0n,
    ...logPlace(event),
  });
  // The USDC payout of a redemption came first and may have been held as a violation candidate.
  if (direction === "redeem") {
    await explainCandidate(
      context,
      { blockNumber: event.block.number, txHash: event.transaction.hash },
      explains.redemption({
        txHash: event.transaction.hash,
        usdc: network.usdc.address,
        psm,
        user,
        kusdIn: amount,
        fee,
      }),
      "redemption_payout",
    );
  }
  // A mint while minting is off is paid out of the PSM's kUSD inventory, by a transfer that came first.
  if (direction === "mint") {
    await explainCandidate(
      context,
      { blockNumber: event.block.number, txHash: event.transaction.hash },
      explains.mintFromInventory({
        txHash: event.transaction.hash,
        kusd: network.kUSD.address,
        psm,
        user,
        usdcIn: amount,
        fee,
      }),
      "mint_payout",
    );
  }
  // A swap made through another contract had its USDC leg (whose Transfer comes first)
  // recorded provisionally as a reserve movement; it is a swap, so take it out again.
  if (isDirectSwapCall(event.transaction, psm)) return;
  const id = movementId(event.transaction.hash, psm, direction === "mint" ? "in" : "out");
  const leg = await context.db.find(psmReserveMovement, { id });
  if (!leg) return;
  if (leg.amount <= amounts.usdcAmount) await context.db.delete(psmReserveMovement, { id });
  else await context.db.update(psmReserveMovement, { id }).set({ amount: leg.amount - amounts.usdcAmount });
});

ponder.on("PSM:SurplusSkimmed", async ({ event, context }) => {
  const id = movementId(event.transaction.hash, lower(event.log.address), "out");
  if (await context.db.find(psmReserveMovement, { id })) {
    await context.db.update(psmReserveMovement, { id }).set({ kind: "skim" });
  }
});

for (const [name, paused] of [
  ["Paused", true],
  ["Unpaused", false],
] as const) {
  ponder.on(`PSM:${name}`, async ({ event, context }) => {
    const psm = lower(event.log.address);
    await context.db.insert(psmPauseEvent).values({
      id: logKey(event),
      psmKey: psmKeyOf(psm) ?? "unknown",
      psm,
      paused,
      account: lower(event.args.account),
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    });
  });
}

// Parameter changes the PSM announces; a past block's parameters fold from these
// (packages/core/src/psm/parameters-at.ts). Setters without an event are not here: logs cannot show them.
type ParameterColumns = Pick<
  typeof psmParameterEvent.$inferInsert,
  "stable" | "fee" | "cap" | "threshold" | "seconds" | "flag" | "address"
>;
type LogEvent = {
  log: { address: Address; logIndex: number };
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: Hex };
};

async function recordParameter(context: Context, event: LogEvent, name: string, columns: ParameterColumns) {
  const psm = lower(event.log.address);
  await context.db.insert(psmParameterEvent).values({
    id: logKey(event),
    psmKey: psmKeyOf(psm) ?? "unknown",
    psm,
    name,
    ...columns,
    ...logPlace(event),
  });
}

ponder.on("PSM:StableAdded", ({ event, context }) =>
  recordParameter(context, event, "StableAdded", {
    stable: lower(event.args.stable),
    fee: event.args.fee,
    cap: event.args.cap,
  }),
);
ponder.on("PSM:TieredFeeAdded", ({ event, context }) =>
  recordParameter(context, event, "TieredFeeAdded", {
    stable: lower(event.args.stable),
    threshold: event.args.threshold,
    fee: event.args.feeBps,
  }),
);
ponder.on("PSM:MaxOracleDelayUpdated", ({ event, context }) =>
  recordParameter(context, event, "MaxOracleDelayUpdated", {
    stable: lower(event.args.stable),
    seconds: event.args.delaySeconds,
  }),
);
ponder.on("PSM:DepegCheckDisabledUpdated", ({ event, context }) =>
  recordParameter(context, event, "DepegCheckDisabledUpdated", { flag: event.args.disabled }),
);
ponder.on("PSM:SolvencyCheckDisabledUpdated", ({ event, context }) =>
  recordParameter(context, event, "SolvencyCheckDisabledUpdated", { flag: event.args.disabled }),
);
ponder.on("PSM:TreasuryUpdated", ({ event, context }) =>
  recordParameter(context, event, "TreasuryUpdated", { address: lower(event.args.treasury) }),
);
