/**
 * Where a log sits, as every event table records it: its transaction, block, time and index in
 * the block. Spread into a row (`...logPlace(event)`), so each table writes the four alike.
 */
import type { Hex } from "viem";

type PlacedEvent = {
  transaction: { hash: Hex };
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number };
};

export const logPlace = (event: PlacedEvent) => ({
  txHash: event.transaction.hash,
  blockNumber: event.block.number,
  timestamp: event.block.timestamp,
  logIndex: event.log.logIndex,
});
