/**
 * A bare Ponder app for the indexing benchmark: every event the real indexer handles, with an
 * empty handler. What remains is Ponder's own cost of syncing and dispatching the same logs.
 * Only the sources the network has are handled (Base has no rate-event LST, the devnet no
 * exchange-rate feed): Ponder refuses a handler for a source the configuration dropped.
 */
import { ponder } from "ponder:registry";
import config from "../ponder.config.js";

const noop = async () => {};
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

const sources = new Set([...Object.keys(config.contracts ?? {}), ...Object.keys(config.blocks ?? {})]);
for (const name of EVENTS) if (sources.has(name.split(":")[0]!)) ponder.on(name, noop);
