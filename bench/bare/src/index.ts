/**
 * A bare Ponder app for the indexing benchmark: every event the real indexer handles, with an
 * empty handler. What remains is Ponder's own cost of syncing and dispatching the same logs.
 * Only the sources the network has are handled (Base has no rate-event LST, the devnet no
 * exchange-rate feed): Ponder refuses a handler for a source the configuration dropped.
 *
 * With KUSD_BENCH_FLOOR=1 it is the floor app instead: each log handler writes one row and does
 * nothing else, so what it adds to bare Ponder is the engine's cost of the rows alone, the least
 * any indexer that keeps a row per event can add (bench/index-bench.ts --floor).
 */
import { type Context, ponder } from "ponder:registry";
import { floorRow } from "ponder:schema";
import config from "../ponder.config.js";

const noop = async () => {};

type LogEvent = {
  log: { address: `0x${string}`; logIndex: number };
  transaction: { hash: `0x${string}`; from: `0x${string}`; to: `0x${string}` | null };
  block: { number: bigint; timestamp: bigint };
};

/** One row per log; the In and Out sources of a token see a listed-to-listed transfer twice, keyed apart. */
const writeRow =
  (source: string) =>
  async ({ event, context }: { event: LogEvent; context: Context }) => {
    await context.db.insert(floorRow).values({
      id: `${String(event.block.number).padStart(10, "0")}:${String(event.log.logIndex).padStart(6, "0")}${source}`,
      contract: event.log.address,
      from: event.transaction.from,
      to: event.transaction.to ?? event.log.address,
      amount: event.block.timestamp * 1_000_000_000_000n, // 22 digits, as a token amount has
      txHash: event.transaction.hash,
      blockNumber: event.block.number,
      timestamp: event.block.timestamp,
      logIndex: event.log.logIndex,
    });
  };

const floor = process.env.KUSD_BENCH_FLOOR === "1";
const EVENTS = [
  "KUSD:Transfer",
  "KUSD:RoleGranted",
  "KUSD:RoleRevoked",
  "PSM:Swap",
  "PSM:SurplusSkimmed",
  "PSM:Paused",
  "PSM:Unpaused",
  "PSM:RoleGranted",
  "PSM:RoleRevoked",
  "PSM:StableAdded",
  "PSM:TieredFeeAdded",
  "PSM:TreasuryUpdated",
  "PSM:DepegCheckDisabledUpdated",
  "PSM:SolvencyCheckDisabledUpdated",
  "PSM:MaxOracleDelayUpdated",
  "StakingVault:Deposit",
  "StakingVault:Withdraw",
  "StakingVault:Transfer",
  "StakingVault:YieldDistributed",
  "StakingVault:RoleGranted",
  "StakingVault:RoleRevoked",
  "DepositVault:Deposit",
  "DepositVault:Withdraw",
  "DepositVault:Transfer",
  "DepositVault:L1AssetsUpdated",
  "DepositVault:OffChainAssetsUpdated",
  "DepositVault:HedgingReserveUpdated",
  "DepositVault:WithdrawalRequested",
  "DepositVault:WithdrawalClaimed",
  "DepositVault:FundsSwept",
  "DepositVault:L1DepositRequested",
  "DepositVault:RoleGranted",
  "DepositVault:RoleRevoked",
  "USDCOut:Transfer",
  "USDCIn:Transfer",
  "WETHOut:Transfer",
  "WETHOut:Deposit",
  "WETHOut:Withdrawal",
  "WETHIn:Transfer",
  "LST:ExchangeRateUpdated",
  "LendingVault:Deposit",
  "LendingVault:Withdraw",
  "LendingVault:Borrow",
  "LendingVault:Repay",
  "SharePrice:block",
  "LstFeed:block",
] as const;

type EventName = (typeof EVENTS)[number];
type LogEventName = Exclude<EventName, `${string}:block`>;
const isLogEvent = (name: EventName): name is LogEventName => !name.endsWith(":block");

const sources = new Set([...Object.keys(config.contracts ?? {}), ...Object.keys(config.blocks ?? {})]);
for (const name of EVENTS) {
  const [source] = name.split(":") as [string];
  if (!sources.has(source)) continue;
  if (floor && isLogEvent(name)) ponder.on(name, writeRow(source.endsWith("In") ? "i" : ""));
  else ponder.on(name, noop);
}
