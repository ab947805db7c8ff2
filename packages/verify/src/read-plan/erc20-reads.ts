/**
 * The reads behind an instant read (POST /instant-read), made the same way by the gateway and a
 * reader: a token's symbol(), decimals() and totalSupply() at one block, each settled on its own
 * so the caller tells a contract that is no ERC-20 from an RPC that did not answer.
 */
import type { Address, PublicClient } from "viem";

const ERC20 = [
  { type: "function", name: "symbol", stateMutability: "view", inputs: [], outputs: [{ type: "string" }] },
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ type: "uint8" }] },
  { type: "function", name: "totalSupply", stateMutability: "view", inputs: [], outputs: [{ type: "uint256" }] },
] as const;

export type Erc20Reads = {
  symbol: PromiseSettledResult<string>;
  decimals: PromiseSettledResult<number>;
  totalSupply: PromiseSettledResult<bigint>;
};

export async function readErc20(client: PublicClient, address: Address, blockNumber: bigint): Promise<Erc20Reads> {
  const at = { address, abi: ERC20, blockNumber } as const;
  const [symbol, decimals, totalSupply] = await Promise.allSettled([
    client.readContract({ ...at, functionName: "symbol" }),
    client.readContract({ ...at, functionName: "decimals" }).then(Number),
    client.readContract({ ...at, functionName: "totalSupply" }),
  ]);
  return { symbol, decimals, totalSupply };
}
