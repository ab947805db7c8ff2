/**
 * The hash of a block, read for every request (requests that arrive together share the read):
 * cached reports are keyed by block number and hash, so after a reorg the same number is a
 * different key and the old branch is never served. Null when the read fails.
 */
import type { Hex, PublicClient } from "viem";
import { coalesce } from "./memo.js";

const byClient = new WeakMap<PublicClient, (key: string, build: () => Promise<Hex | null>) => Promise<Hex | null>>();

export function blockHashAt(client: PublicClient, blockNumber: bigint): Promise<Hex | null> {
  let shared = byClient.get(client);
  if (!shared) byClient.set(client, (shared = coalesce<Hex | null>()));
  return shared(String(blockNumber), () => client.getBlock({ blockNumber }).then((b) => b.hash, () => null));
}
