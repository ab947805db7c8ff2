import { ponder } from "ponder:registry";
import { lendingEvent, lstRate } from "ponder:schema";
import { lendingKeyOf, lower, lstSymbolOf, network } from "./lookup.js";

if (Object.keys(network.lsts).length > 0) ponder.on("LST:ExchangeRateUpdated", async ({ event, context }) => {
  await context.db.insert(lstRate).values({
    id: event.id,
    token: lower(event.log.address),
    symbol: lstSymbolOf(event.log.address),
    rate: event.args.newRate,
    blockNumber: event.block.number,
    timestamp: event.block.timestamp,
  });
});

const lending = (kind: string, account: `0x${string}`, assets: bigint, shares: bigint | null, event: { id: string; log: { address: `0x${string}` }; transaction: { hash: `0x${string}` }; block: { number: bigint; timestamp: bigint } }) => ({
  id: event.id,
  vaultKey: lendingKeyOf(event.log.address),
  vault: lower(event.log.address),
  kind,
  account: lower(account),
  assets,
  shares,
  txHash: event.transaction.hash,
  blockNumber: event.block.number,
  timestamp: event.block.timestamp,
});

if (Object.keys(network.lending).length > 0) {
  ponder.on("LendingVault:Deposit", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("deposit", event.args.owner, event.args.assets, event.args.shares, event));
  });
  ponder.on("LendingVault:Withdraw", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("withdraw", event.args.owner, event.args.assets, event.args.shares, event));
  });
  ponder.on("LendingVault:Borrow", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("borrow", event.args.account, event.args.assets, null, event));
  });
  ponder.on("LendingVault:Repay", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("repay", event.args.account, event.args.assets, null, event));
  });
}
