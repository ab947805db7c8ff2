/**
 * Whether an address has code at a block, asked of the chain once per address and block range:
 * code seen at block B means code at every later block, none at B means none at any earlier one
 * (the protocol's contracts, and Multicall3, are never destroyed). A report at a block before a
 * contract existed tells "not deployed yet" from "the read failed" with this, and the batch of a
 * block's reads goes to Multicall3 only where it has code.
 *
 * What is learnt is kept per RPC endpoint, for the `limitCodePresence` most recently used ones (a
 * service reads its own endpoint, and those agents name to verify_report), and per endpoint for
 * at most MAX_ADDRESSES addresses (the protocol's contracts are a few dozen).
 */
import type { Address, PublicClient } from "viem";

type Bounds = { firstWithCode: bigint | null; lastWithout: bigint | null };
type Known = { bounds: Map<string, Bounds>; inFlight: Map<string, Promise<boolean | null>> };

/** Endpoints kept unless a process sets its own limit (a command-line verifier reads one or two). */
export const DEFAULT_CODE_PRESENCE_URLS = 8;
const MAX_ADDRESSES = 4_096;

let maxUrls = DEFAULT_CODE_PRESENCE_URLS;
// Clients of one RPC URL (the reports' and the live reads') share what they learnt; a Map keeps
// insertion order, so its first key is the endpoint least recently used.
const byUrl = new Map<string, Known>();
const byClient = new WeakMap<PublicClient, Known>();

/** How many RPC endpoints' knowledge this process keeps (the oldest is forgotten past it). */
export function limitCodePresence(urls: number): void {
  maxUrls = Math.max(1, urls);
  forgetPast(byUrl, maxUrls);
}

/** The endpoints whose knowledge is kept, the addresses known across them, and the limit. */
export function codePresenceSize(): { urls: number; addresses: number; limit: number } {
  let addresses = 0;
  for (const k of byUrl.values()) addresses += k.bounds.size;
  return { urls: byUrl.size, addresses, limit: maxUrls };
}

function forgetPast<K, V>(m: Map<K, V>, max: number): void {
  for (const key of m.keys()) {
    if (m.size <= max) return;
    m.delete(key);
  }
}

function knownFor(client: PublicClient): Known {
  const url = (client.transport as { url?: unknown } | undefined)?.url;
  const fresh = (): Known => ({ bounds: new Map(), inFlight: new Map() });
  if (typeof url === "string") {
    const known = byUrl.get(url) ?? fresh();
    byUrl.delete(url);
    byUrl.set(url, known);
    forgetPast(byUrl, maxUrls);
    return known;
  }
  if (!byClient.has(client)) byClient.set(client, fresh());
  return byClient.get(client)!;
}

/** True or false as the chain says; null when eth_getCode itself failed (unknown, never a guess). */
export async function hasCodeAt(client: PublicClient, address: Address, block: bigint): Promise<boolean | null> {
  const known = knownFor(client);
  const key = address.toLowerCase();
  const b = known.bounds.get(key) ?? { firstWithCode: null, lastWithout: null };
  if (b.firstWithCode !== null && block >= b.firstWithCode) return true;
  if (b.lastWithout !== null && block <= b.lastWithout) return false;
  // Reads that ask together (a report's batch) share one eth_getCode.
  const asking = `${key}@${block}`;
  const running = known.inFlight.get(asking);
  if (running) return running;
  const read = client
    .getCode({ address, blockNumber: block })
    .then(
      (code) => {
        const has = code !== undefined && code !== "0x";
        const now = known.bounds.get(key) ?? { firstWithCode: null, lastWithout: null };
        if (has)
          now.firstWithCode = now.firstWithCode === null || block < now.firstWithCode ? block : now.firstWithCode;
        else now.lastWithout = now.lastWithout === null || block > now.lastWithout ? block : now.lastWithout;
        known.bounds.set(key, now);
        forgetPast(known.bounds, MAX_ADDRESSES);
        return has;
      },
      () => null,
    )
    .finally(() => known.inFlight.delete(asking));
  known.inFlight.set(asking, read);
  return read;
}
