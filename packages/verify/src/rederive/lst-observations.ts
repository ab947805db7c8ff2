/**
 * The LST exchange-rate observations behind /api/apy's 7-day staking average, rebuilt from the
 * reader's own chain as the indexer builds them (src/indexing/market.ts): a rated token's every
 * `ExchangeRateUpdated` log (at its block's time), and an exchange-rate feed's `latestRoundData`
 * read every `intervalBlocks` blocks (one observation per distinct `updatedAt`, at that time). The
 * window is the 8 days before the report; its first block is found by the blocks' own timestamps.
 */
import type { LstRateRow, NetworkConfig } from "@kusd/core";
import { DAY } from "@kusd/core";
import { type Address, type PublicClient, parseAbi, parseAbiItem } from "viem";
import { LOG_RANGE_BLOCKS, logsInRanges } from "./logs-in-ranges.js";

const RATE_UPDATED = parseAbiItem("event ExchangeRateUpdated(uint256 oldRate, uint256 newRate, uint256 timestamp)");
const AGGREGATOR = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/** How far back the report reads LST rates: the 7-day average, and the day before it. */
export const LST_WINDOW_SECONDS = 8 * DAY;

/** A block's time, read once. */
export function blockTimes(client: PublicClient) {
  const known = new Map<bigint, Promise<number>>();
  return (block: bigint): Promise<number> => {
    let t = known.get(block);
    if (!t) {
      t = client.getBlock({ blockNumber: block }).then((b) => Number(b.timestamp));
      known.set(block, t);
    }
    return t;
  };
}

/** The first block at or before `last` whose time is at least `timestamp` (binary search on the blocks' own times). */
export async function firstBlockAtOrAfter(
  timeOf: (block: bigint) => Promise<number>,
  timestamp: number,
  last: bigint,
  first = 0n,
): Promise<bigint> {
  let lo = first;
  let hi = last;
  while (lo < hi) {
    const mid = lo + (hi - lo) / 2n;
    if ((await timeOf(mid)) >= timestamp) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

export type LstObservations = { rows: LstRateRow[]; fromBlock: bigint; calls: { logs: number; reads: number } };

export async function lstObservationsFromChain(
  client: PublicClient,
  network: NetworkConfig,
  now: number,
  toBlock: bigint,
): Promise<LstObservations> {
  const timeOf = blockTimes(client);
  const from = now - LST_WINDOW_SECONDS;
  const fromBlock = await firstBlockAtOrAfter(timeOf, from, toBlock);
  const calls = { logs: 0, reads: 0 };
  const logCalls = { n: 0 };
  const entries = Object.entries(network.lsts);
  const rated = entries.filter(([, l]) => l.kind === "rate-event");
  const symbolOf = new Map(rated.map(([symbol, l]) => [l.address.toLowerCase(), symbol]));
  const logs =
    rated.length === 0
      ? []
      : await logsInRanges(
          fromBlock,
          toBlock,
          LOG_RANGE_BLOCKS,
          (a, b) =>
            client.getLogs({ address: rated.map(([, l]) => l.address), event: RATE_UPDATED, fromBlock: a, toBlock: b }),
          logCalls,
        );
  calls.logs = logCalls.n;
  const rows: LstRateRow[] = [];
  for (const log of logs) {
    const timestamp = await timeOf(log.blockNumber!);
    if (timestamp < from) continue;
    rows.push({
      symbol: symbolOf.get(log.address.toLowerCase())!,
      blockNumber: log.blockNumber!,
      timestamp: BigInt(timestamp),
      rate: log.args.newRate!,
    });
  }
  rows.push(...(await feedObservations(client, network, from, fromBlock, toBlock, calls)));
  return { rows: rows.sort((a, b) => Number(a.timestamp - b.timestamp)), fromBlock, calls };
}

/** The feeds read at the indexer's block interval in the window: one row per new `updatedAt` in it. */
async function feedObservations(
  client: PublicClient,
  network: NetworkConfig,
  from: number,
  fromBlock: bigint,
  toBlock: bigint,
  calls: { reads: number },
): Promise<LstRateRow[]> {
  const feeds = Object.entries(network.lsts).flatMap(([symbol, l]) =>
    l.kind === "exchange-rate-feed" ? [{ symbol, ...l }] : [],
  );
  if (feeds.length === 0) return [];
  // The indexer's block handler: from the earliest feed's start, every smallest interval.
  const start = BigInt(Math.min(...feeds.map((f) => f.startBlock)));
  const step = BigInt(Math.min(...feeds.map((f) => f.intervalBlocks)));
  const firstGrid = fromBlock <= start ? start : start + ((fromBlock - start + step - 1n) / step) * step;
  const rows: LstRateRow[] = [];
  for (const f of feeds) {
    const seen = new Set<bigint>();
    for (let b = firstGrid; b <= toBlock; b += step) {
      if (b < BigInt(f.startBlock)) continue;
      calls.reads++;
      const round = await client
        .readContract({
          abi: AGGREGATOR,
          address: f.address as Address,
          functionName: "latestRoundData",
          blockNumber: b,
        })
        .catch(() => null);
      if (!round) continue;
      const [, answer, , updatedAt] = round;
      if (answer <= 0n || updatedAt === 0n || seen.has(updatedAt) || Number(updatedAt) < from) continue;
      seen.add(updatedAt);
      const rate = f.feed.decimals === 18 ? answer : (answer * 10n ** 18n) / 10n ** BigInt(f.feed.decimals);
      rows.push({ symbol: f.symbol, blockNumber: b, timestamp: updatedAt, rate });
    }
  }
  return rows;
}
