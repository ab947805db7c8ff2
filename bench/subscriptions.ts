/**
 * The logs the indexer subscribes to, as eth_getLogs filters: the same addresses, events and
 * indexed-argument filters as ponder.config.ts, for counting events and timing raw fetches.
 */

import type { NetworkConfig } from "@kusd/core";
import { type Abi, type Address, encodeEventTopics, type Hex } from "viem";
import {
  evkVaultAbi,
  fiatTokenV2Abi,
  kerneVaultAbi,
  kusdAbi,
  kusdpsmAbi,
  ratedLSTAbi,
  stakedKUSDAbi,
  weth9Abi,
} from "../abis/index.js";

export type LogFilter = { name: string; address: Address[]; topics: (Hex | Hex[] | null)[]; fromBlock: number };

const topic0 = (abi: Abi, eventName: string) => encodeEventTopics({ abi, eventName } as never)[0] as Hex;
const pad = (a: Address) => `0x${a.slice(2).toLowerCase().padStart(64, "0")}` as Hex;

export function subscriptions(net: NetworkConfig): LogFilter[] {
  const all = <T extends { address: Address; startBlock: number }>(xs: T[]) => ({
    address: xs.map((x) => x.address),
    fromBlock: Math.min(...xs.map((x) => x.startBlock)),
  });
  const events = (
    name: string,
    abi: Abi,
    names: string[],
    src: { address: Address[]; fromBlock: number },
  ): LogFilter => ({
    name,
    ...src,
    topics: [names.map((n) => topic0(abi, n))],
  });
  const accounts = net.registryAccounts.map(pad);
  const roles = ["RoleGranted", "RoleRevoked"];
  const psms = Object.values(net.psms);
  const usdcFrom = Math.min(net.kUSD.startBlock, ...psms.map((p) => p.startBlock));
  const wethFrom = Math.min(net.kUSD.startBlock, ...Object.values(net.depositVaults).map((v) => v.startBlock));
  const filters: LogFilter[] = [
    events("KUSD", kusdAbi, ["Transfer", ...roles], all([net.kUSD])),
    events("PSM", kusdpsmAbi, ["Swap", "SurplusSkimmed", "Paused", "Unpaused", ...roles], all(psms)),
    events(
      "StakingVault",
      stakedKUSDAbi,
      ["Deposit", "Withdraw", "Transfer", "YieldDistributed", ...roles],
      all(Object.values(net.stakingVaults)),
    ),
    events(
      "DepositVault",
      kerneVaultAbi,
      [
        "Deposit",
        "Withdraw",
        "Transfer",
        "L1AssetsUpdated",
        "OffChainAssetsUpdated",
        "HedgingReserveUpdated",
        ...roles,
      ],
      all(Object.values(net.depositVaults)),
    ),
    {
      name: "USDCOut",
      address: [net.usdc.address],
      fromBlock: usdcFrom,
      topics: [topic0(fiatTokenV2Abi, "Transfer"), accounts],
    },
    {
      name: "USDCIn",
      address: [net.usdc.address],
      fromBlock: usdcFrom,
      topics: [topic0(fiatTokenV2Abi, "Transfer"), null, accounts],
    },
    {
      name: "WETHOut",
      address: [net.weth.address],
      fromBlock: wethFrom,
      topics: [topic0(weth9Abi, "Transfer"), accounts],
    },
    {
      name: "WETHIn",
      address: [net.weth.address],
      fromBlock: wethFrom,
      topics: [topic0(weth9Abi, "Transfer"), null, accounts],
    },
    {
      name: "WETHOut",
      address: [net.weth.address],
      fromBlock: wethFrom,
      topics: [[topic0(weth9Abi, "Deposit"), topic0(weth9Abi, "Withdrawal")], accounts],
    },
  ];
  const rateTokens = Object.values(net.lsts).filter((l) => l.kind === "rate-event");
  if (rateTokens.length > 0) filters.push(events("LST", ratedLSTAbi, ["ExchangeRateUpdated"], all(rateTokens)));
  if (Object.keys(net.lending).length > 0)
    filters.push(
      events("LendingVault", evkVaultAbi, ["Deposit", "Withdraw", "Borrow", "Repay"], all(Object.values(net.lending))),
    );
  return filters;
}

/** Fetches every log of `filters` up to `toBlock` in `chunk`-block ranges; returns the count. */
export async function fetchAllLogs(
  rpcUrl: string,
  filters: LogFilter[],
  toBlock: number,
  chunk = 5_000,
): Promise<number> {
  let count = 0;
  let id = 0;
  for (const f of filters) {
    for (let from = f.fromBlock; from <= toBlock; from += chunk) {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: "eth_getLogs",
          params: [
            {
              address: f.address,
              topics: f.topics,
              fromBlock: `0x${from.toString(16)}`,
              toBlock: `0x${Math.min(toBlock, from + chunk - 1).toString(16)}`,
            },
          ],
        }),
      });
      const body = (await res.json()) as { result?: unknown[]; error?: { message: string } };
      if (!body.result) throw new Error(`eth_getLogs failed: ${body.error?.message}`);
      count += body.result.length;
    }
  }
  return count;
}
