/**
 * A provider's price per JSON-RPC method, for turning measured calls into what they cost.
 *
 * Alchemy's compute units (CU) per call, from its "Compute Unit Costs" page,
 * https://www.alchemy.com/docs/reference/compute-unit-costs (as stored for this project's search
 * tool; an older version of the same table, docs.alchemyapi.io/documentation/compute-units, had
 * eth_getLogs at 75 and eth_getBlockByNumber at 16). A JSON-RPC batch costs the sum of its calls
 * ("batch: CU of method × times called" on the same page). Only the methods the service sends.
 */
export const ALCHEMY_CU_SOURCE = "https://www.alchemy.com/docs/reference/compute-unit-costs";

export const ALCHEMY_CU: Record<string, number> = {
  eth_chainId: 0,
  net_version: 0,
  eth_blockNumber: 10,
  eth_getBlockByNumber: 20,
  eth_getBlockByHash: 20,
  eth_getBalance: 20,
  eth_getCode: 20,
  eth_getTransactionReceipt: 20,
  eth_getTransactionCount: 20,
  eth_call: 26,
  eth_getLogs: 60,
};

/**
 * The provider's eth_getLogs block range, the limit that splits a backfill into requests:
 * QuickNode's paid plans allow 10,000 blocks per eth_getLogs ("5 blocks for users on the Free Trial
 * plan and 10,000 blocks for those on paid plans", the same sentence on each chain's eth_getLogs
 * page, e.g. https://www.quicknode.com/hi/docs/arbitrum-nova/eth_getLogs).
 */
export const PROVIDER_LOG_RANGE = 10_000;

/** Compute units of calls by method; methods without a price are returned so a table can name them. */
export function computeUnits(byMethod: Record<string, number>): { cu: number; unpriced: string[] } {
  let cu = 0;
  const unpriced: string[] = [];
  for (const [method, n] of Object.entries(byMethod)) {
    const price = ALCHEMY_CU[method];
    if (price === undefined) unpriced.push(method);
    else cu += price * n;
  }
  return { cu, unpriced };
}
