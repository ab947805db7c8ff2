/**
 * KerneVault sections (WETH asset, as deployed): deposits and mints, the disabled 4626 exits, the
 * withdrawal queue across its cooldown, and the non-4626 outflows (sweepToExchange, prime
 * transfers, emergency exit, founder capture; v1 also flash loans). v1 measures solvency against
 * raw share supply, v2 against supply scaled down by the decimals offset.
 */
import { maxUint256, zeroAddress } from "viem";
import { ROLE } from "./constants.js";
import { ACTORS } from "./deploy-pair.js";
import { at } from "./role-ref.js";
import { type Section, SectionBuilder } from "./step.js";

const ETH = 10n ** 18n;
const SHARE = 10n ** 21n;
const BORROW = "borrow(address,address,uint256,bool)";

function fundWeth(s: SectionBuilder, v: "vaultV1" | "vaultV2"): void {
  for (const who of ["alice", "bob"] as const) {
    s.ok(who, "weth", "deposit()", [], 100n * ETH);
    s.ok(who, "weth", "approve(address,uint256)", [at(v), maxUint256]);
  }
}

export function vaultV1Section(): Section {
  const v = "vaultV1" as const;
  const s = new SectionBuilder(v, "KerneVault v1 (0x8005…): balance-based assets, flash lender", v);
  fundWeth(s, v);
  s.ok("alice", v, "deposit(uint256,address)", [10n * ETH, ACTORS.alice]);
  s.ok("bob", v, "mint(uint256,address)", [5n * SHARE, ACTORS.bob]);
  s.reverts("Use withdrawal queue", "alice", v, "withdraw(uint256,address,address)", [ETH, ACTORS.alice, ACTORS.alice]);
  s.reverts("Use withdrawal queue", "alice", v, "redeem(uint256,address,address)", [SHARE, ACTORS.alice, ACTORS.alice]);
  s.ok("alice", v, "requestWithdrawal(uint256)", [2n * ETH]);
  s.reverts("Zero shares", "alice", v, "requestWithdrawal(uint256)", [0n]);
  s.reverts("Cooldown not met", "alice", v, "claimWithdrawal(uint256)", [0n]);
  s.reverts("Panic", "alice", v, "claimWithdrawal(uint256)", [5n]);

  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "sweepToExchange(uint256)", [3n * ETH]);
  s.reverts("Amount must be greater than zero", "safe", v, "sweepToExchange(uint256)", [0n]);
  s.ok("safe", v, "sweepToExchange(uint256)", [3n * ETH]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "updateOffChainAssets(uint256)", [3n * ETH]);
  s.ok("operator", v, "updateOffChainAssets(uint256)", [3n * ETH]);
  s.ok("operator", v, "updateProjectedAPY(uint256)", [1500n]);
  s.time(7 * 86_400);
  s.ok("alice", v, "claimWithdrawal(uint256)", [0n]);
  s.reverts("Already claimed", "alice", v, "claimWithdrawal(uint256)", [0n]);

  // Flash loans (v1 only): fee for outsiders, none for strategists; repayment pulled back.
  s.ok("alice", "weth", "transfer(address,uint256)", [at("borrower"), ETH]);
  s.ok("bob", "borrower", BORROW, [at(v), at("weth"), 5n * ETH, true]);
  s.reverts("Unsupported token", "bob", "borrower", BORROW, [at(v), at("usdc"), 1n, true]);
  s.reverts("WETH9: insufficient allowance", "bob", "borrower", BORROW, [at(v), at("weth"), 5n * ETH, false]);
  s.ok("safe", v, "setFlashFee(uint256)", [100n]);
  s.reverts("Fee too high", "safe", v, "setFlashFee(uint256)", [101n]);

  // Pause: deposits stop, the paused vault offers a 5% emergency exit to holders.
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "pause()");
  s.ok("operator", v, "pause()");
  s.reverts("EnforcedPause", "alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);
  s.reverts("EnforcedPause", "alice", v, "requestWithdrawal(uint256)", [ETH]);
  s.ok("alice", v, "emergencyExit(uint256)", [ETH]);
  s.reverts("AccessControlUnauthorizedAccount", "operator", v, "unpause()");
  s.ok("safe", v, "unpause()");
  s.reverts("Vault not paused", "alice", v, "emergencyExit(uint256)", [ETH]);

  // Prime accounts and roles.
  s.reverts("Not authorized", "alice", v, "transferToPrime(address,uint256)", [ACTORS.bob, ETH]);
  s.ok("operator", v, "transferToPrime(address,uint256)", [ACTORS.bob, ETH]);
  s.reverts("Not authorized", "bob", v, "returnFromPrime(uint256)", [ETH]);
  s.ok("safe", v, "setPrimeAccount(address,bool)", [ACTORS.bob, true]);
  s.ok("bob", v, "returnFromPrime(uint256)", [ETH]);
  s.reverts("L1 bridge not set", "safe", v, "requestL1Deposit(uint256)", [ETH]);
  s.reverts("Founder not set", "operator", v, "captureFounderWealth(uint256)", [ETH]);
  s.reverts("Founder cannot be zero address", "safe", v, "setFounder(address)", [zeroAddress]);
  s.ok("safe", v, "grantRole(bytes32,address)", [ROLE.STRATEGIST, ACTORS.alice]);
  s.ok("alice", v, "updateHedgingReserve(uint256)", [ETH]);
  s.ok("safe", v, "revokeRole(bytes32,address)", [ROLE.STRATEGIST, ACTORS.alice]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "updateHedgingReserve(uint256)", [0n]);

  // Solvency: v1's ratio divides by raw share supply (1e3 shares per wei), so any threshold trips;
  // the first check records insolventSince, one past the grace period pauses, strict ones revert.
  s.ok("safe", v, "setCircuitBreakers(uint256,uint256,uint256)", [0n, 0n, 10_100n]);
  s.ok("alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);
  s.ok("alice", v, "requestWithdrawal(uint256)", [ETH]);
  s.time(7 * 86_400);
  s.reverts("Vault: Insolvent", "alice", v, "claimWithdrawal(uint256)", [1n]);
  s.ok("bob", v, "checkAndPause()");
  s.reverts("EnforcedPause", "alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);
  s.ok("safe", v, "setCircuitBreakers(uint256,uint256,uint256)", [0n, 0n, 0n]);
  s.ok("safe", v, "unpause()");
  s.ok("alice", v, "claimWithdrawal(uint256)", [1n]);
  // The white-label initializer is guarded only by `founder == 0`: anyone may call it once.
  const init = "initialize(address,string,string,address,address,uint256,uint256,bool)";
  s.ok("bob", v, init, [zeroAddress, "Bob Vault", "bVLT", ACTORS.bob, ACTORS.bob, 0n, 1000n, false]);
  s.reverts("Already initialized", "alice", v, init, [
    zeroAddress,
    "A",
    "A",
    ACTORS.alice,
    ACTORS.alice,
    0n,
    0n,
    false,
  ]);
  return s.section;
}

export function vaultV2Section(): Section {
  const v = "vaultV2" as const;
  const s = new SectionBuilder(v, "KerneVault v2 (0x8ccc…): tracked assets, deposit fee, genesis phase", v);
  fundWeth(s, v);
  // No treasury or founder yet: the fee is waived in transfer but still priced into the shares.
  s.ok("alice", v, "deposit(uint256,address)", [10n * ETH, ACTORS.alice]);
  s.reverts("NoSweepDestination", "safe", v, "sweepToExchange(uint256)", [ETH]);
  s.reverts("ZeroAddress", "safe", v, "setTreasury(address)", [zeroAddress]);
  s.ok("safe", v, "setTreasury(address)", [ACTORS.treasury]);
  s.ok("alice", v, "deposit(uint256,address)", [10n * ETH, ACTORS.alice]);
  s.ok("bob", v, "mint(uint256,address)", [5n * SHARE, ACTORS.bob]);
  s.reverts("UseRequestWithdrawal", "alice", v, "withdraw(uint256,address,address)", [ETH, ACTORS.alice, ACTORS.alice]);
  s.reverts("UseRequestWithdrawal", "alice", v, "redeem(uint256,address,address)", [SHARE, ACTORS.alice, ACTORS.alice]);
  s.reverts("ERC4626ExceededMaxWithdraw", "alice", v, "withdraw(uint256,address,address)", [
    1000n * ETH,
    ACTORS.alice,
    ACTORS.alice,
  ]);
  s.ok("alice", v, "requestWithdrawal(uint256)", [2n * ETH]);
  s.reverts("ZeroAmount", "alice", v, "requestWithdrawal(uint256)", [0n]);
  s.reverts("WithdrawalCooldownNotMet", "alice", v, "claimWithdrawal(uint256)", [0n]);

  // Outflows that are not ERC-4626: the sweep goes to the treasury (no exchange address on v2).
  s.reverts("ZeroAmount", "safe", v, "sweepToExchange(uint256)", [0n]);
  s.ok("safe", v, "sweepToExchange(uint256)", [3n * ETH]);
  s.ok("operator", v, "updateOffChainAssets(uint256)", [3n * ETH]);
  s.reverts("UpdateCooldownNotMet", "operator", v, "updateOffChainAssets(uint256)", [3n * ETH]);
  s.time(601);
  s.reverts("OffChainChangeExceedsMaxRate", "operator", v, "updateOffChainAssets(uint256)", [10n * ETH]);
  s.ok("operator", v, "updateOffChainAssets(uint256)", [(35n * ETH) / 10n]);
  s.ok("operator", v, "setDynamicBuffer(uint256)", [250n]);
  s.time(7 * 86_400);
  s.ok("alice", v, "claimWithdrawal(uint256)", [0n]);
  s.reverts("AlreadyClaimed", "alice", v, "claimWithdrawal(uint256)", [0n]);

  // Pause: deposits and the queue stop; the emergency recipient is pinned only while unpaused.
  s.ok("operator", v, "pause()");
  // v2 does not override deposit: a paused vault's maxDeposit of 0 is what stops it.
  s.reverts("ERC4626ExceededMaxDeposit", "alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);
  s.reverts("EnforcedPause", "alice", v, "requestWithdrawal(uint256)", [ETH]);
  s.reverts("EmergencyRecipientLockedWhilePaused", "safe", v, "setEmergencyRecipient(address)", [ACTORS.treasury]);
  s.reverts("EmergencyRecipientNotSet", "safe", v, "emergencyExit(address)", [ACTORS.treasury]);
  s.ok("safe", v, "unpause()");
  s.ok("safe", v, "setEmergencyRecipient(address)", [ACTORS.treasury]);
  s.reverts("MustBePaused", "safe", v, "emergencyExit(address)", [ACTORS.treasury]);

  // Prime transfers, founder capture through the genesis phase.
  s.reverts("NotPrimeAccount", "safe", v, "transferToPrime(address,uint256)", [ACTORS.bob, ETH]);
  s.ok("safe", v, "setPrimeAccount(address,bool)", [ACTORS.bob, true]);
  s.ok("safe", v, "transferToPrime(address,uint256)", [ACTORS.bob, ETH]);
  s.ok("safe", v, "returnFromPrime(address,uint256)", [ACTORS.bob, ETH / 2n]);
  s.reverts("AccessControlUnauthorizedAccount", "bob", v, "returnFromPrime(address,uint256)", [ACTORS.bob, ETH / 2n]);
  s.reverts("FounderNotSet", "operator", v, "captureFounderWealth(uint256)", [ETH]);
  s.ok("safe", v, "setFounder(address)", [ACTORS.exchange]);
  s.ok("operator", v, "captureFounderWealth(uint256)", [ETH]);
  s.ok("safe", v, "endGenesisPhase()");
  s.reverts("GenesisAlreadyEnded", "safe", v, "endGenesisPhase()");
  s.ok("operator", v, "captureFounderWealth(uint256)", [ETH]);
  s.reverts("UpdateCooldownNotMet", "operator", v, "captureFounderWealth(uint256)", [ETH]);
  s.time(601);
  s.reverts("FounderCaptureExceedsLimit", "operator", v, "captureFounderWealth(uint256)", [10_000n * ETH]);

  // The clone initializer is closed on a constructed vault; only the insurance fund injects.
  s.reverts("VaultAlreadyInitialized", "bob", v, "setFactory(address)", [ACTORS.bob]);
  s.reverts(
    "VaultAlreadyInitialized",
    "bob",
    v,
    "initialize(address,string,string,address,address,address,uint256,uint256,bool,address,uint256)",
    [at("weth"), "Bob Vault", "bVLT", ACTORS.bob, ACTORS.bob, ACTORS.bob, 0n, 1000n, false, zeroAddress, 0n],
  );
  s.reverts("NotInsuranceFund", "alice", v, "injectFromInsurance(uint256)", [ETH]);
  s.reverts("ZeroAddress", "safe", v, "setInsuranceFund(address)", [zeroAddress]);

  // Limits and role gates.
  s.reverts("SolvencyThresholdTooLow", "safe", v, "setCircuitBreakers(uint256,uint256,uint256)", [0n, 0n, 8000n]);
  s.ok("safe", v, "setCircuitBreakers(uint256,uint256,uint256)", [0n, 2n * ETH, 0n]);
  s.reverts("WithdrawLimitExceeded", "alice", v, "requestWithdrawal(uint256)", [3n * ETH]);
  s.ok("safe", v, "setCircuitBreakers(uint256,uint256,uint256)", [0n, 0n, 0n]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "checkAndPause()");
  s.reverts("revert (no data)", "bob", "borrower", BORROW, [at(v), at("weth"), ETH, true]);
  s.reverts("FeeTooHigh", "safe", v, "setDepositFee(uint256)", [101n]);
  s.ok("safe", v, "setDepositFee(uint256)", [0n]);
  s.ok("bob", v, "deposit(uint256,address)", [ETH, ACTORS.bob]);
  s.ok("safe", v, "setWhitelistEnabled(bool)", [true]);
  s.reverts("ERC4626ExceededMaxDeposit", "alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);
  s.ok("safe", v, "setWhitelisted(address,bool)", [ACTORS.alice, true]);
  s.ok("alice", v, "deposit(uint256,address)", [ETH, ACTORS.alice]);

  // Emergency exit drains every WETH the vault holds to the pinned recipient.
  s.ok("operator", v, "pause()");
  s.reverts("EmergencyRecipientMismatch", "safe", v, "emergencyExit(address)", [ACTORS.bob]);
  s.ok("safe", v, "emergencyExit(address)", [ACTORS.treasury]);
  s.ok("safe", v, "unpause()");
  s.ok("safe", v, "grantRole(bytes32,address)", [ROLE.PAUSER, ACTORS.alice]);
  s.ok("alice", v, "pause()");
  s.ok("safe", v, "revokeRole(bytes32,address)", [ROLE.PAUSER, ACTORS.alice]);
  s.ok("safe", v, "unpause()");
  return s.section;
}
