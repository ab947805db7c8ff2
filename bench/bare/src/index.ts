/**
 * A bare Ponder app for the indexing benchmark: every event the real indexer handles, with an
 * empty handler. What remains is Ponder's own cost of syncing and dispatching the same logs.
 */
import { ponder } from "ponder:registry";

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
] as const;

for (const name of EVENTS) ponder.on(name, noop);
