/**
 * The hash of a block, read at most every `freshMs` (requests in that time share the read; 0:
 * only requests that arrive together share it): cached reports are keyed by block number and
 * hash, so after a reorg the same number is a different key and the old branch is not served
 * longer than that. Null when the read fails (and a failure is not kept).
 */
import type { Hex, PublicClient } from "viem";
import { coalesce, memo } from "./memo.js";

type Shared = (key: string, build: () => Promise<Hex | null>) => Promise<Hex | null>;
const byClient = new WeakMap<PublicClient, Shared>();

export function blockHashAt(client: PublicClient, blockNumber: bigint, freshMs: number): Promise<Hex | null> {
  let shared = byClient.get(client);
  if (!shared) byClient.set(client, (shared = freshMs > 0 ? memo<Hex | null>({ max: 256, ttlMs: freshMs, keep: (h) => h !== null }) : coalesce<Hex | null>()));
  return shared(String(blockNumber), () => client.getBlock({ blockNumber }).then((b) => b.hash, () => null));
}
