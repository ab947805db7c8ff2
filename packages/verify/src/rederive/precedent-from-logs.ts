/**
 * The redemption precedent rebuilt from the chain's logs, as the indexer builds it from the same
 * events (src/indexing/psm.ts, transfers.ts): every PSM `Swap` whose fromToken is kUSD up to the
 * block, each with the kUSD its PSM burned earlier in the same transaction, and every kUSD
 * Transfer to the zero address for the lifetime burn. A reader's `eth_getLogs`, nothing of ours.
 */

import type { NetworkConfig, PrecedentRedemption, PsmKey } from "@kusd/core";
import { swapAmounts } from "@kusd/core";
import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import { LOG_RANGE_BLOCKS, logsInRanges } from "./logs-in-ranges.js";

const SWAP = parseAbiItem(
  "event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee)",
);
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export type LogsPrecedent = { redemptions: PrecedentRedemption[]; kusdBurned: bigint; logCalls: number };

export async function precedentFromLogs(
  client: PublicClient,
  network: NetworkConfig,
  block: bigint,
  rangeBlocks = LOG_RANGE_BLOCKS,
): Promise<LogsPrecedent> {
  const kusd = getAddress(network.kUSD.address);
  const psms = Object.entries(network.psms) as [PsmKey, { address: Address; startBlock: number }][];
  const keyOf = new Map(psms.map(([k, p]) => [p.address.toLowerCase(), k]));
  const calls = { n: 0 };
  const fromPsms = BigInt(Math.min(...psms.map(([, p]) => p.startBlock)));
  const [swaps, transfersToZero] = await Promise.all([
    logsInRanges(
      fromPsms,
      block,
      rangeBlocks,
      (from, to) =>
        client.getLogs({
          address: psms.map(([, p]) => p.address),
          event: SWAP,
          args: { fromToken: kusd },
          fromBlock: from,
          toBlock: to,
        }),
      calls,
    ),
    logsInRanges(
      BigInt(network.kUSD.startBlock),
      block,
      rangeBlocks,
      (from, to) =>
        client.getLogs({ address: kusd, event: TRANSFER, args: { to: zeroAddress }, fromBlock: from, toBlock: to }),
      calls,
    ),
  ]);
  // The indexer counts a Transfer from the zero address as a mint, whatever its recipient.
  const burns = transfersToZero.filter((t) => t.args.from !== zeroAddress);
  const order = (a: { blockNumber: bigint | null; logIndex: number | null }, b: typeof a) =>
    Number((a.blockNumber ?? 0n) - (b.blockNumber ?? 0n)) || (a.logIndex ?? 0) - (b.logIndex ?? 0);
  swaps.sort(order);
  // Each block's time, read once per block that has a redemption.
  const times = new Map<bigint, bigint>();
  for (const b of new Set(swaps.map((s) => s.blockNumber!)))
    times.set(b, (await client.getBlock({ blockNumber: b })).timestamp);
  const redemptions = swaps.map((s): PrecedentRedemption => {
    const psm = s.address.toLowerCase() as Hex;
    const { amount, fee, user } = s.args as { amount: bigint; fee: bigint; user: Address };
    const amounts = swapAmounts("redeem", amount, fee);
    // As the indexer sums them: the PSM's burns in this transaction before this Swap.
    const burned = burns
      .filter(
        (t) =>
          t.transactionHash === s.transactionHash &&
          t.args.from?.toLowerCase() === psm &&
          (t.logIndex ?? 0) < (s.logIndex ?? 0),
      )
      .reduce((sum, t) => sum + (t.args.value ?? 0n), 0n);
    return {
      id: `${s.blockHash}-${s.logIndex}`,
      psmKey: keyOf.get(psm) ?? "unknown",
      psm,
      user: user.toLowerCase() as Hex,
      usdcAmount: amounts.usdcAmount,
      kusdAmount: amounts.kusdAmount,
      feeBps: amounts.feeBps,
      kusdBurned: burned,
      txHash: s.transactionHash!,
      blockNumber: s.blockNumber!,
      timestamp: times.get(s.blockNumber!)!,
    };
  });
  const kusdBurned = burns.reduce((sum, t) => sum + (t.args.value ?? 0n), 0n);
  return { redemptions, kusdBurned, logCalls: calls.n };
}
