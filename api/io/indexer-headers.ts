/**
 * The headers of the blocks the indexer of this process took into its chain, so a report at the
 * indexed head takes its block's hash from the block Ponder already read instead of reading the
 * header again: one RPC call less per block a report follows (docs/running-on-base.md, following
 * the head). The patched realtime sync announces each block it adds (`process.emit("ponder:block")`,
 * patches/ponder+0.16.10.patch); a process without that indexer (the read replica) hears nothing
 * and reads headers from the RPC as before.
 */
import type { Hex } from "viem";
import type { CacheSizes } from "./cache-sizes.js";

/** What the patched realtime sync announces for each block it adds to its local chain. */
export type AnnouncedBlock = { chainId: number; number: Hex; hash: Hex; timestamp: Hex };

export const INDEXER_BLOCK_EVENT = "ponder:block";

/** Blocks kept: Base's reorgs are a few blocks deep, and a report at the head asks for the newest. */
export const KEPT_HEADERS = 256;

export type IndexerHeaders = {
  /** The header the indexer holds at `blockNumber` on its chain now, or null when it holds none. */
  at(blockNumber: bigint): { hash: Hex; timestamp: number } | null;
  /** Stop listening. */
  close(): void;
  /** Headers held against the limit, for /metrics. */
  sizes: CacheSizes;
};

/** The chain's blocks as the indexer adds them, newest `kept` of them. */
export function indexerHeaders(chainId: number, kept = KEPT_HEADERS): IndexerHeaders {
  const byNumber = new Map<bigint, { hash: Hex; timestamp: number }>();
  const onBlock = (b: AnnouncedBlock) => {
    if (b.chainId !== chainId) return;
    const number = BigInt(b.number);
    // A block at N replaces the branch above it: after a reorg, what was held past N is gone.
    for (const held of byNumber.keys()) if (held >= number) byNumber.delete(held);
    byNumber.set(number, { hash: b.hash, timestamp: Number(BigInt(b.timestamp)) });
    const oldest = byNumber.keys().next();
    if (byNumber.size > kept && !oldest.done) byNumber.delete(oldest.value);
  };
  process.on(INDEXER_BLOCK_EVENT, onBlock);
  return {
    sizes: () => [{ cache: "indexer_headers", unit: "entries", limit: kept, entries: byNumber.size, bytes: null }],
    at: (blockNumber) => byNumber.get(blockNumber) ?? null,
    close: () => process.off(INDEXER_BLOCK_EVENT, onBlock),
  };
}
