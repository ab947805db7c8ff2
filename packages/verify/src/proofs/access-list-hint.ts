/**
 * Which accounts and slots the reads will touch, as the RPC's eth_createAccessList says: asked for
 * all reads at once so their proofs come in one round instead of one per state access. A hint
 * only: it says what to fetch, never what is true. A slot it leaves out is fetched when the
 * execution reaches it, one it adds is proven for nothing, and an RPC that does not answer it
 * leaves everything to be fetched on access.
 */
import { type Address, encodeFunctionData, type Hex, numberToHex, type PublicClient } from "viem";
import { abiFromCastSignature, MULTICALL3 } from "../read-plan/pinned-reader.js";
import type { RecordedRead } from "./recorded-reads.js";

export type AccessListEntry = { address: Address; storageKeys: Hex[] };

export async function accessListHint(
  client: Pick<PublicClient, "request">,
  reads: readonly RecordedRead[],
  blockNumber: bigint,
): Promise<AccessListEntry[]> {
  const calls = reads.flatMap((r) => (r.kind === "call" ? [r.spec] : []));
  const lists = await Promise.all(
    calls.map(async (spec) => {
      const abi = abiFromCastSignature(spec.signature);
      const data = encodeFunctionData({ abi, functionName: (abi[0] as { name: string }).name, args: spec.args ?? [] });
      try {
        const answer = (await client.request({
          method: "eth_createAccessList",
          params: [{ from: MULTICALL3, to: spec.to, data }, numberToHex(blockNumber)],
        } as never)) as { accessList?: unknown } | null;
        const list = Array.isArray(answer?.accessList) ? (answer.accessList as AccessListEntry[]) : [];
        return [{ address: spec.to, storageKeys: [] }, ...list.filter(wellFormed)];
      } catch {
        return [{ address: spec.to, storageKeys: [] }];
      }
    }),
  );
  return lists.flat();
}

const wellFormed = (e: AccessListEntry) =>
  typeof e?.address === "string" &&
  /^0x[0-9a-fA-F]{40}$/.test(e.address) &&
  Array.isArray(e.storageKeys) &&
  e.storageKeys.every((k) => typeof k === "string" && /^0x[0-9a-fA-F]{1,64}$/.test(k));
