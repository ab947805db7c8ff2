/**
 * Role holders at a block rebuilt from the chain's RoleGranted / RoleRevoked logs, as the indexer
 * records them (src/indexing/roles.ts, from the KUSD, PSM, StakingVault and DepositVault sources'
 * start blocks) and the service folds them (roleHoldersAt): in chain order a grant adds a holder
 * not yet holding, a revocation removes one. A reader's eth_getLogs, nothing of ours.
 */
import { earliest, type NetworkConfig } from "@kusd/core";
import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem } from "viem";
import type { HoldersOf } from "../read-plan/risk-reads.js";
import { LOG_RANGE_BLOCKS, logsInRanges } from "./logs-in-ranges.js";

const ROLE_EVENTS = [
  parseAbiItem("event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)"),
  parseAbiItem("event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)"),
];

export type LogsRoles = { holdersOf: HoldersOf; logCalls: number };

export async function roleHoldersFromLogs(
  client: PublicClient,
  n: NetworkConfig,
  block: bigint,
  rangeBlocks = LOG_RANGE_BLOCKS,
): Promise<LogsRoles> {
  const groups = [[n.kUSD], Object.values(n.psms), Object.values(n.stakingVaults), Object.values(n.depositVaults)];
  const startOf = new Map(
    groups.flatMap((g) => g.map((d) => [d.address.toLowerCase(), BigInt(earliest(...g))] as const)),
  );
  const from = [...startOf.values()].reduce((a, b) => (b < a ? b : a));
  const calls = { n: 0 };
  const logs = await logsInRanges(
    from,
    block,
    rangeBlocks,
    (a, b) =>
      client.getLogs({
        address: groups.flat().map((d) => d.address),
        events: ROLE_EVENTS,
        fromBlock: a,
        toBlock: b,
      }),
    calls,
  );
  const ordered = logs
    .filter((l) => l.blockNumber! >= startOf.get(l.address.toLowerCase())!)
    .sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!);
  const holdersOf: HoldersOf = async (contract: Address, role: Hex) => {
    const holders = new Set<string>();
    for (const l of ordered) {
      const args = l.args as { role: Hex; account: Address };
      if (l.address.toLowerCase() !== contract.toLowerCase() || args.role.toLowerCase() !== role.toLowerCase())
        continue;
      if (l.eventName === "RoleGranted") holders.add(args.account.toLowerCase());
      else holders.delete(args.account.toLowerCase());
    }
    return [...holders].map((h) => getAddress(h));
  };
  return { holdersOf, logCalls: calls.n };
}
