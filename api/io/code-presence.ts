/**
 * Whether an address has code at a block, asked of the chain once per address and block range:
 * code seen at block B means code at every later block, none at B means none at any earlier one
 * (the protocol's contracts are never destroyed). A report at a block before a contract existed
 * tells "not deployed yet" from "the read failed" with this.
 */
import type { Address, PublicClient } from "viem";

type Bounds = { firstWithCode: bigint | null; lastWithout: bigint | null };

const byClient = new WeakMap<PublicClient, Map<string, Bounds>>();

/** True or false as the chain says; null when eth_getCode itself failed (unknown, never a guess). */
export async function hasCodeAt(client: PublicClient, address: Address, block: bigint): Promise<boolean | null> {
  let known = byClient.get(client);
  if (!known) {
    known = new Map();
    byClient.set(client, known);
  }
  const key = address.toLowerCase();
  const b = known.get(key) ?? { firstWithCode: null, lastWithout: null };
  if (b.firstWithCode !== null && block >= b.firstWithCode) return true;
  if (b.lastWithout !== null && block <= b.lastWithout) return false;
  const code = await client.getCode({ address, blockNumber: block }).catch(() => null);
  if (code === null) return null;
  const has = code !== undefined && code !== "0x";
  if (has) b.firstWithCode = b.firstWithCode === null || block < b.firstWithCode ? block : b.firstWithCode;
  else b.lastWithout = b.lastWithout === null || block > b.lastWithout ? block : b.lastWithout;
  known.set(key, b);
  return has;
}
