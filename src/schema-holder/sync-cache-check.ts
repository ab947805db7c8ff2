/**
 * The sync cache's check (sync-cache.ts) for a chain of the network: its block hashes read from
 * the chain's first RPC, the verdict written to the log. A failed check is said and not fatal:
 * Ponder then starts on what is stored, as it always did.
 */

import type { ChainConfig } from "@kusd/core";
import { createPublicClient, http } from "viem";
import type { Query } from "./claim-schema.js";
import { describeVerdict, verifySyncCache } from "./sync-cache.js";

export async function checkSyncCache(
  query: Query,
  chain: Pick<ChainConfig, "id" | "rpc">,
  log: (m: string) => void = (m) => console.warn(`[sync-cache] ${m}`),
): Promise<void> {
  const url = chain.rpc[0];
  if (!url) return;
  const client = createPublicClient({ transport: http(url, { retryCount: 2 }) });
  const hashAt = (blockNumber: bigint) =>
    client.getBlock({ blockNumber }).then(
      (b) => b.hash as string,
      (e: Error) => {
        if (e.name === "BlockNotFoundError") return null;
        throw e;
      },
    );
  try {
    for (const v of await verifySyncCache(query, [{ chainId: chain.id, hashAt }])) log(describeVerdict(v));
  } catch (e) {
    log(`chain ${chain.id}: could not check the stored chain data (${(e as Error).message}); Ponder uses it as stored`);
  }
}
