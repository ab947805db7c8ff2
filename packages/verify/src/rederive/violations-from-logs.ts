/**
 * Every registry violation up to a block, rebuilt from the chain's logs as the indexer builds
 * them (ponder.config.ts, src/indexing/transfers.ts, psm.ts, vaults.ts): the Transfer logs of the
 * tokens it follows (USDC, WETH, kUSD, both skUSD) that leave or enter a registry account, each
 * from its source's start block, and the events that explain a candidate (the PSMs' Swap, the
 * vaults' Withdraw, the deposit vaults' WithdrawalClaimed), folded in chain order
 * (violation-fold.ts). A reader's eth_getLogs and block headers, nothing of ours.
 */
import { earliest, indexRegistry, type NetworkConfig, type ViolationRow } from "@kusd/core";
import { type AbiEvent, type Address, type Hex, type PublicClient, parseAbiItem } from "viem";
import { kerneVaultAbi } from "../../../../abis/KerneVault.js";
import { kusdpsmAbi } from "../../../../abis/KUSDPSM.js";
import { stakedKUSDAbi } from "../../../../abis/StakedKUSD.js";
import { HeaderTimes, registryTimes } from "./header-times.js";
import { LOG_RANGE_BLOCKS, logsInRanges } from "./logs-in-ranges.js";
import { chainOrder, foldViolations, type RegistryEvent } from "./violation-fold.js";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** An event as the indexer's ABI declares it (Ponder decodes each source's logs with its ABI). */
const event = (abi: readonly { type: string; name?: string }[], name: string) =>
  abi.find((x) => x.type === "event" && x.name === name) as AbiEvent;

/** The token symbols the indexer names registry transfers by (src/indexing/lookup.ts). */
export function tokenSymbols(n: NetworkConfig): (token: Address) => string {
  const symbols = new Map<string, string>([
    [n.usdc.address.toLowerCase(), "USDC"],
    [n.kUSD.address.toLowerCase(), "kUSD"],
    [n.weth.address.toLowerCase(), "WETH"],
    [n.stakingVaults.skUSD.address.toLowerCase(), "skUSD"],
    [n.stakingVaults.skUSDDeprecated.address.toLowerCase(), "skUSD-v1"],
  ]);
  return (token) => symbols.get(token.toLowerCase()) ?? "unknown";
}

type RawLog = {
  address: Address;
  args: unknown;
  eventName?: string;
  transactionHash: Hex | null;
  blockNumber: bigint | null;
  logIndex: number | null;
};

export type LogsViolations = { rows: ViolationRow[]; calls: { logs: number; headers: number } };

export async function violationsFromLogs(
  client: PublicClient,
  n: NetworkConfig,
  head: { number: bigint; timestamp: number },
  rangeBlocks = LOG_RANGE_BLOCKS,
): Promise<LogsViolations> {
  const psms = Object.values(n.psms);
  const stakingVaults = Object.values(n.stakingVaults);
  const depositVaults = Object.values(n.depositVaults);
  // Each source of ponder.config.ts with the block it starts at.
  const tokenStart = new Map<string, bigint>([
    [n.usdc.address.toLowerCase(), BigInt(earliest(n.kUSD, ...psms))],
    [n.weth.address.toLowerCase(), BigInt(earliest(n.kUSD, ...depositVaults))],
    [n.kUSD.address.toLowerCase(), BigInt(n.kUSD.startBlock)],
    ...stakingVaults.map((v) => [v.address.toLowerCase(), BigInt(earliest(...stakingVaults))] as const),
  ]);
  const tokens = [n.usdc.address, n.weth.address, n.kUSD.address, ...stakingVaults.map((v) => v.address)];
  const from = [...tokenStart.values()].reduce((a, b) => (b < a ? b : a));
  const accounts = n.registryAccounts;
  const calls = { n: 0 };
  const ranged = (start: bigint, fetch: (a: bigint, b: bigint) => Promise<RawLog[]>) =>
    logsInRanges(start, head.number, rangeBlocks, fetch, calls);
  const [outOf, into, swaps, vaultWithdrawals, queueClaims] = await Promise.all([
    ranged(from, (a, b) =>
      client.getLogs({ address: tokens, event: TRANSFER, args: { from: accounts }, fromBlock: a, toBlock: b }),
    ),
    ranged(from, (a, b) =>
      client.getLogs({ address: tokens, event: TRANSFER, args: { to: accounts }, fromBlock: a, toBlock: b }),
    ),
    ranged(BigInt(earliest(...psms)), (a, b) =>
      client.getLogs({
        address: psms.map((p) => p.address),
        event: event(kusdpsmAbi, "Swap"),
        fromBlock: a,
        toBlock: b,
      }),
    ),
    ranged(BigInt(earliest(...stakingVaults)), (a, b) =>
      client.getLogs({
        address: stakingVaults.map((v) => v.address),
        event: event(stakedKUSDAbi, "Withdraw"),
        fromBlock: a,
        toBlock: b,
      }),
    ),
    ranged(BigInt(earliest(...depositVaults)), (a, b) =>
      client.getLogs({
        address: depositVaults.map((v) => v.address),
        events: [event(kerneVaultAbi, "Withdraw"), event(kerneVaultAbi, "WithdrawalClaimed")],
        fromBlock: a,
        toBlock: b,
      }),
    ),
  ]);
  const place = (l: RawLog) => ({ txHash: l.transactionHash!, blockNumber: l.blockNumber!, logIndex: l.logIndex! });
  const transfers = new Map<string, RegistryEvent>();
  for (const l of [...outOf, ...into]) {
    if (l.blockNumber! < tokenStart.get(l.address.toLowerCase())!) continue;
    const a = l.args as { from: Address; to: Address; value: bigint };
    transfers.set(`${l.blockNumber}:${l.logIndex}`, {
      kind: "transfer",
      token: l.address,
      from: a.from,
      to: a.to,
      amount: a.value,
      ...place(l),
    });
  }
  const events: RegistryEvent[] = [
    ...transfers.values(),
    ...swaps.map((l): RegistryEvent => {
      const a = l.args as { user: Address; fromToken: Address; amount: bigint; fee: bigint };
      return {
        kind: "swap",
        psm: l.address,
        user: a.user,
        fromToken: a.fromToken,
        amount: a.amount,
        fee: a.fee,
        ...place(l),
      };
    }),
    ...vaultWithdrawals.map((l): RegistryEvent => {
      const a = l.args as { receiver: Address; assets: bigint };
      return {
        kind: "withdrawal",
        vault: l.address,
        asset: n.kUSD.address,
        receiver: a.receiver,
        assets: a.assets,
        ...place(l),
      };
    }),
    ...queueClaims.map((l): RegistryEvent => {
      const a = l.args as { receiver?: Address; user?: Address; assets: bigint };
      const receiver = l.eventName === "WithdrawalClaimed" ? a.user! : a.receiver!;
      return { kind: "withdrawal", vault: l.address, asset: n.weth.address, receiver, assets: a.assets, ...place(l) };
    }),
  ].sort(chainOrder);
  const times = new HeaderTimes(client, [[head.number, head.timestamp]]);
  const registryTime = await registryTimes(
    times,
    n.registry.versions.map((v) => v.issued_at),
    from,
    head.number,
  );
  const folded = foldViolations(events, {
    index: indexRegistry(n.registry.versions),
    listed: new Set(accounts.map((a) => a.toLowerCase())),
    usdc: n.usdc.address,
    kUSD: n.kUSD.address,
    tokenSymbol: tokenSymbols(n),
    registryTime,
  });
  const stamps = await Promise.all(folded.map((v) => times.at(v.blockNumber)));
  return {
    rows: folded.map((v, i) => ({ ...v, timestamp: BigInt(stamps[i]!) })),
    calls: { logs: calls.n, headers: times.calls },
  };
}
