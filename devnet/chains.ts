import { type Chain, defineChain } from "viem";

/** A viem chain for a devnet RPC (chain id 8453 "base" or 1 "ethereum"). */
export function devnetChain(id: number, rpcUrl: string): Chain {
  return defineChain({
    id,
    name: id === 8453 ? "base (devnet)" : id === 1 ? "ethereum (devnet)" : `devnet ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
