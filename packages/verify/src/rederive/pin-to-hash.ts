/**
 * A transport that pins every state read of one block to that block's hash (EIP-1898): where a
 * read names the block by its number, the request names `{ blockHash }` instead, so a node on
 * another branch (a reorg since the statement was signed) answers "unknown block" instead of
 * reading a different block under the same number.
 */
import { type EIP1193RequestFn, type Hex, numberToHex, type Transport } from "viem";

/** The parameter index of the block in each state-reading method. */
const BLOCK_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_createAccessList: 1,
  eth_getTransactionCount: 1,
};

export function pinnedToBlockHash(transport: Transport, blockNumber: bigint, blockHash: Hex): Transport {
  const number = numberToHex(blockNumber);
  return (config) => {
    const inner = transport(config);
    const request = (async ({ method, params }: { method: string; params?: unknown[] }) => {
      const at = BLOCK_PARAM[method];
      const pinned =
        at !== undefined && Array.isArray(params) && params[at] === number
          ? params.map((p, i) => (i === at ? { blockHash, requireCanonical: true } : p))
          : params;
      return inner.request({ method, params: pinned } as never);
    }) as EIP1193RequestFn;
    return { ...inner, request };
  };
}
