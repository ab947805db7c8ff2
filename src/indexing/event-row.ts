/**
 * Where a log sits, as every event table records it: its transaction, block, time and index in
 * the block. Spread into a row (`...logPlace(event)`), so each table writes the four alike.
 */
import type { Hex } from "viem";

type LoggedEvent = { block: { number: bigint }; log: { logIndex: number } };

type PlacedEvent = LoggedEvent & {
  transaction: { hash: Hex };
  block: { timestamp: bigint };
};

export const logPlace = (event: PlacedEvent) => ({
  txHash: event.transaction.hash,
  blockNumber: event.block.number,
  timestamp: event.block.timestamp,
  logIndex: event.log.logIndex,
});

/**
 * The key of a log's row in an event table: its block and its index in the block (only Base is
 * indexed, so the two name one log), zero-padded so that keys compare as strings in chain order,
 * as Ponder's event id does (the tie-break of reads in one block). 17 characters where Ponder's
 * id has 75: the key is held in the indexing cache, written with each row and compared in every
 * insert into the primary key's index (issue 41).
 */
export const logKey = (event: LoggedEvent): string =>
  `${event.block.number.toString().padStart(10, "0")}:${event.log.logIndex.toString().padStart(6, "0")}`;
