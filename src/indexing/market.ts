import { ponder } from "ponder:registry";
import { lendingEvent, lstRate } from "ponder:schema";
import { parseAbi } from "viem";
import { logKey } from "./event-row.js";
import { lendingKeyOf, lower, lstSymbolOf, network } from "./lookup.js";

const rateEvents = Object.values(network.lsts).filter((l) => l.kind === "rate-event");
const rateFeeds = Object.entries(network.lsts).flatMap(([symbol, l]) =>
  l.kind === "exchange-rate-feed" ? [{ symbol, ...l }] : [],
);
const aggregatorAbi = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/** Feeds seen with code: code, once deployed, stays, so each is looked for only until it appears. */
const feedsWithCode = new Set<string>();

if (rateFeeds.length > 0)
  ponder.on("LstFeed:block", async ({ event, context }) => {
    for (const f of rateFeeds) {
      if (BigInt(f.startBlock) > event.block.number) continue;
      if (!feedsWithCode.has(f.address)) {
        // A feed read before the feed exists answers 0x; it is skipped, never fatal.
        const code = await context.client.getCode({ address: f.address });
        if (!code || code === "0x") continue;
        feedsWithCode.add(f.address);
      }
      // A feed with no round yet reverts (Chainlink's "No data present"): nothing to record, not fatal.
      const round = await context.client
        .readContract({ abi: aggregatorAbi, address: f.address, functionName: "latestRoundData" })
        .catch(() => null);
      if (!round) continue;
      const [, answer, , updatedAt] = round;
      if (answer <= 0n || updatedAt === 0n) continue;
      // One row per feed update, at the time the feed says it was made: the staking yield is the
      // growth between updates, exactly as with a token that emits each new rate.
      const rate = f.feed.decimals === 18 ? answer : (answer * 10n ** 18n) / 10n ** BigInt(f.feed.decimals);
      await context.db
        .insert(lstRate)
        .values({
          id: `${lower(f.address)}:${updatedAt}`,
          token: lower(f.address),
          symbol: f.symbol,
          rate,
          blockNumber: event.block.number,
          timestamp: updatedAt,
        })
        .onConflictDoNothing();
    }
  });

if (rateEvents.length > 0)
  ponder.on("LST:ExchangeRateUpdated", async ({ event, context }) => {
    await context.db.insert(lstRate).values({
      id: logKey(event),
      token: lower(event.log.address),
      symbol: lstSymbolOf(event.log.address),
      rate: event.args.newRate,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
    });
  });

const lending = (
  kind: string,
  account: `0x${string}`,
  assets: bigint,
  shares: bigint | null,
  event: {
    log: { address: `0x${string}`; logIndex: number };
    transaction: { hash: `0x${string}` };
    block: { number: bigint; timestamp: bigint };
  },
) => ({
  id: logKey(event),
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
    await context.db
      .insert(lendingEvent)
      .values(lending("deposit", event.args.owner, event.args.assets, event.args.shares, event));
  });
  ponder.on("LendingVault:Withdraw", async ({ event, context }) => {
    await context.db
      .insert(lendingEvent)
      .values(lending("withdraw", event.args.owner, event.args.assets, event.args.shares, event));
  });
  ponder.on("LendingVault:Borrow", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("borrow", event.args.account, event.args.assets, null, event));
  });
  ponder.on("LendingVault:Repay", async ({ event, context }) => {
    await context.db.insert(lendingEvent).values(lending("repay", event.args.account, event.args.assets, null, event));
  });
}
