/**
 * What paying needs, read once from the API at the first paid call: the market (the gateway's
 * network and asset, from its descriptor's `x-x402`, as kusd-buy reads it), the session's cap in
 * that asset, and the wallet that signs x402 payments with the agent's key (none without a key).
 */
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { getAddress, type Hex, isAddress, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Market, Purse, Wallet } from "./paying-proxy.js";
import { SpendCap } from "./spend-cap.js";

/** The gateway's network and asset, from <api>/paid/openapi.json. */
export async function readMarket(api: string, fetchImpl: typeof fetch = fetch): Promise<Market> {
  const url = `${api}/paid/openapi.json`;
  const res = await fetchImpl(url);
  if (!res.ok) throw new Error(`the paid gateway's descriptor ${url} answered ${res.status}: is the gateway enabled?`);
  const x = ((await res.json()) as { "x-x402"?: { network?: unknown; asset?: Record<string, unknown> } })["x-x402"];
  const a = x?.asset;
  if (
    typeof x?.network !== "string" ||
    typeof a?.address !== "string" ||
    !isAddress(a.address) ||
    typeof a.symbol !== "string" ||
    typeof a.decimals !== "number"
  )
    throw new Error(`${url} does not name the gateway's network and asset (x-x402)`);
  return { network: x.network, asset: getAddress(a.address), symbol: a.symbol, decimals: a.decimals };
}

/**
 * Signs x402 exact-EVM payments (EIP-3009 transferWithAuthorization) with `key`, for the market's
 * asset only and never above `maxPerPayment`: x402's own spend controls, behind the session cap.
 */
export function evmWallet(key: Hex, market: Market, maxPerPayment: bigint): Wallet {
  const account = privateKeyToAccount(key);
  const client = new x402Client()
    .register(market.network as `${string}:${string}`, new ExactEvmScheme(account))
    .setSpendControls({
      maxAmountPerPayment: false,
      allowedAssets: [
        {
          network: market.network as `${string}:${string}`,
          asset: market.asset,
          maxAmountPerPayment: maxPerPayment.toString(),
        },
      ],
    });
  return { address: account.address, pay: (required) => client.createPaymentPayload(required) };
}

export async function openPurse(api: string, maxSpend: string, key: Hex | null): Promise<Purse> {
  const market = await readMarket(api);
  const cap = new SpendCap(parseUnits(maxSpend, market.decimals), market);
  return { market, cap, wallet: key ? evmWallet(key, market, cap.cap) : null };
}
