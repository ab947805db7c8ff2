/**
 * PSM sections: v1 (redeem reserve, tiers compared on raw amounts, no descending check, insurance
 * draw on shortfall), v3 (retired mint PSM: ends with MINTER revoked, minting off, inventory swaps)
 * and the live mint PSM (minting on, redeem burns). Each walks every tier boundary ±1 unit for
 * mints and redemptions, the gates (support, depeg oracle, solvency, cap, pause), flash loans,
 * role grants and revokes, and (v3/live) the fee skim.
 */
import { maxUint256, zeroAddress } from "viem";
import { BASE_FEE_BPS, KUSD, ROLE, SCALE, TIERS, USDC } from "./constants.js";
import { ACTORS } from "./deploy-pair.js";
import { at } from "./role-ref.js";
import { type ReadA, type Section, SectionBuilder } from "./step.js";
import { BOUNDARY_AMOUNTS } from "./views.js";

const CAP = 100_000_000n * USDC;
const TIER_ARGS = TIERS.map((t) => [t.threshold, t.feeBps]);
const SET_TIERS = "setTieredFees(address,(uint256,uint256)[])";
const MINT = "swapStableForKUSD(address,uint256)";
const REDEEM = "swapKUSDForStable(address,uint256)";
const BORROW = "borrow(address,address,uint256,bool)";
const usdc = at("usdc");
const kusd = at("kusd");

/** Redemption sizes one kUSD wei either side of each tier boundary expressed in kUSD. */
const REDEEM_BOUNDARIES = TIERS.flatMap((t) => [
  t.threshold * SCALE - 1n,
  t.threshold * SCALE,
  t.threshold * SCALE + 1n,
]);

const VIRTUAL_PEG_NOTE =
  "virtual peg: the deployed source has no setter for virtualPegEnabled/virtualPegFeeBps (both stay false/0 " +
  "forever); only the getters and getFee at every boundary are compared";

/** A redemption 100 USDC larger than the PSM holds (sized on the reference side). */
function beyondReserves(p: "psmV1" | "psmV3" | "psmLive") {
  return (read: ReadA) =>
    read("usdc", "balanceOf(address)", [at(p)]).then((held) => [usdc, (held + 100n * USDC) * SCALE]);
}

function oracleFresh(s: SectionBuilder, price = 100_000_000n): void {
  s.ok("operator", "feed", "submit(int256)", [price]);
}

export function psmV1Section(): Section {
  const p = "psmV1" as const;
  const s = new SectionBuilder(p, "PSM v1 (redeem reserve 0xFf30…): raw-amount tiers, fail-open gates", p);
  s.note(VIRTUAL_PEG_NOTE);
  s.reverts("StableNotSupported", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "addStable(address,uint256,uint256)", [
    usdc,
    BASE_FEE_BPS,
    CAP,
  ]);
  s.reverts("FeeTooHigh", "safe", p, "addStable(address,uint256,uint256)", [usdc, 501n, CAP]);
  s.ok("safe", p, "addStable(address,uint256,uint256)", [usdc, BASE_FEE_BPS, CAP]);
  // v1 has no ordering check: ascending tiers are accepted (and make getFee pick the first match).
  s.ok("safe", p, SET_TIERS, [usdc, [...TIER_ARGS].reverse()]);
  s.reverts("TooManyFeeTiers", "safe", p, SET_TIERS, [
    usdc,
    Array.from({ length: 21 }, (_, i) => [BigInt(21 - i) * USDC, 5n]),
  ]);
  s.reverts("FeeTooHigh", "safe", p, SET_TIERS, [usdc, [[USDC, 501n]]]);
  s.ok("safe", p, SET_TIERS, [usdc, TIER_ARGS]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "setMintingEnabled(bool)", [true]);
  s.ok("safe", p, "setMintingEnabled(bool)", [true]);
  s.ok("alice", "usdc", "approve(address,uint256)", [at(p), maxUint256]);
  s.ok("alice", p, MINT, [usdc, 10_000n * USDC]);
  for (const amount of BOUNDARY_AMOUNTS) s.ok("alice", p, MINT, [usdc, amount]);
  s.ok("alice", "kusd", "approve(address,uint256)", [at(p), maxUint256]);
  // v1 selects the tier on the raw kUSD amount: the boundaries sit at 5e10, 2.5e11 and 1e12 wei.
  for (const amount of BOUNDARY_AMOUNTS) s.ok("alice", p, REDEEM, [usdc, amount]);
  for (const amount of REDEEM_BOUNDARIES) s.ok("alice", p, REDEEM, [usdc, amount]);
  s.reverts("InsufficientStableReserves", "alice", p, REDEEM, beyondReserves(p));
  s.reverts("StableNotSupported", "alice", p, REDEEM, [at("weth"), KUSD]);

  // Insurance draw on a shortfall: an EOA fund "succeeds" without paying, a limit reverts first.
  s.reverts("CooldownTooShort", "safe", p, "setInsuranceDrawLimits(uint256,uint256)", [1000n * USDC, 60n]);
  s.ok("safe", p, "setInsuranceDrawLimits(uint256,uint256)", [10n * USDC, 3600n]);
  s.ok("safe", p, "setInsuranceFund(address)", [ACTORS.treasury]);
  s.reverts("InsuranceDrawLimitExceededForThisPeriod", "alice", p, REDEEM, beyondReserves(p));
  s.ok("safe", p, "setInsuranceDrawLimits(uint256,uint256)", [0n, 3600n]);
  s.reverts("InsufficientStableReserves", "alice", p, REDEEM, beyondReserves(p));
  s.ok("safe", p, "setInsuranceFund(address)", [zeroAddress]);

  // Pause and the manager role.
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "pause()");
  s.ok("safe", p, "pause()");
  s.reverts("EnforcedPause", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("EnforcedPause", "alice", p, REDEEM, [usdc, KUSD]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "unpause()");
  s.ok("safe", p, "unpause()");
  s.ok("safe", p, "grantRole(bytes32,address)", [ROLE.MANAGER, ACTORS.alice]);
  s.ok("alice", p, "pause()");
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "unpause()");
  s.ok("safe", p, "unpause()");
  s.ok("safe", p, "revokeRole(bytes32,address)", [ROLE.MANAGER, ACTORS.alice]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "pause()");

  // Flash loans (ERC-3156): fee, refusal to repay, bounds, the arbitrageur's zero fee, kUSD side.
  s.reverts("FeeTooHigh", "safe", p, "setFlashFee(uint256)", [101n]);
  s.ok("safe", p, "setFlashFee(uint256)", [9n]);
  s.ok("alice", "usdc", "transfer(address,uint256)", [at("borrower"), 10_000n * USDC]);
  s.ok("bob", "borrower", BORROW, [at(p), usdc, 10_000n * USDC, true]);
  s.reverts("ERC20InsufficientAllowance", "bob", "borrower", BORROW, [at(p), usdc, 1000n * USDC, false]);
  s.reverts("ZeroFlashLoanAmount", "bob", "borrower", BORROW, [at(p), usdc, 0n, true]);
  s.reverts("UnsupportedToken", "bob", "borrower", BORROW, [at(p), at("weth"), 1n, true]);
  s.reverts("FlashLoanExceedsBalance", "bob", "borrower", BORROW, [at(p), usdc, CAP, true]);
  s.ok("safe", p, "grantRole(bytes32,address)", [ROLE.ARBITRAGEUR, at("borrower")]);
  s.ok("bob", "borrower", BORROW, [at(p), usdc, 10_000n * USDC, true]);
  s.ok("bob", "borrower", BORROW, [at(p), kusd, 1_000_000n * KUSD, true]);
  s.ok("safe", p, "revokeRole(bytes32,address)", [ROLE.ARBITRAGEUR, at("borrower")]);
  s.reverts("revert (no data)", "safe", p, "skimSurplus(address,uint256)", [usdc, 1n]);

  // Solvency gate: v1 reads the vault when it answers and fails OPEN when it does not.
  s.ok("safe", p, "setVault(address)", [at("vaultV2")]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setMinSolvencyThreshold(uint256)", [30_000n]);
  s.reverts("ProtocolInsolvency", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setVault(address)", [usdc]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setMinSolvencyThreshold(uint256)", [10_100n]);
  s.ok("safe", p, "setVault(address)", [zeroAddress]);

  // Depeg gate: price at the 2% threshold passes, one step beyond fails, a stale price fails.
  oracleFresh(s);
  s.ok("safe", p, "setOracle(address,address)", [usdc, at("feed")]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s, 98_000_000n);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s, 97_990_000n);
  s.reverts("StableDepegged", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("BpsTooHigh", "safe", p, "setMaxDepegBps(address,uint256)", [usdc, 1001n]);
  s.ok("safe", p, "setMaxDepegBps(address,uint256)", [usdc, 300n]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s);
  s.time(3601);
  s.reverts("OraclePriceStale", "alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s);
  s.ok("alice", p, REDEEM, [usdc, 500n * KUSD]);
  s.ok("safe", p, "setOracle(address,address)", [usdc, zeroAddress]);

  // Cap, then retirement: MINTER revoked, minting off, mints served from kUSD inventory.
  s.ok("safe", p, "setStableCap(address,uint256)", [usdc, 1n]);
  s.reverts("StableCapExceeded", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setStableCap(address,uint256)", [usdc, CAP]);
  s.ok("operator", "kusd", "revokeRole(bytes32,address)", [ROLE.MINTER, at(p)]);
  s.reverts("KusdMintFailed", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setMintingEnabled(bool)", [false]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("ERC20InsufficientBalance", "alice", p, MINT, [usdc, 5_000_000n * USDC]);
  return s.section;
}

/** v3 and the live PSM share one source apart from the live one's redeem-path self-burn. */
export function psmV3LikeSection(p: "psmV3" | "psmLive"): Section {
  const live = p === "psmLive";
  const s = new SectionBuilder(
    p,
    live
      ? "live mint PSM (0xaBDE…): minting on, redeem burns"
      : "retired mint PSM v3 (0x07eB…): MINTER revoked, inventory swaps",
    p,
  );
  s.note(VIRTUAL_PEG_NOTE);
  s.reverts("StableNotSupported", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "addStable(address,uint256,uint256)", [usdc, BASE_FEE_BPS, CAP]);
  s.reverts("strictly descending", "safe", p, SET_TIERS, [usdc, [...TIER_ARGS].reverse()]);
  s.reverts("strictly descending", "safe", p, SET_TIERS, [usdc, [TIER_ARGS[0]!, TIER_ARGS[0]!]]);
  s.reverts("TooManyFeeTiers", "safe", p, SET_TIERS, [
    usdc,
    Array.from({ length: 21 }, (_, i) => [BigInt(21 - i) * USDC, 5n]),
  ]);
  s.ok("safe", p, SET_TIERS, [usdc, TIER_ARGS]);
  s.ok("safe", p, "setMintingEnabled(bool)", [true]);
  s.ok("alice", "usdc", "approve(address,uint256)", [at(p), maxUint256]);
  s.ok("alice", "kusd", "approve(address,uint256)", [at(p), maxUint256]);

  // Gates fail closed: no oracle, then no vault, then a vault that cannot answer.
  s.reverts("DepegOracleNotConfigured", "alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s);
  s.ok("safe", p, "setOracle(address,address)", [usdc, at("feed")]);
  s.reverts("ProtocolInsolvency", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setVault(address)", [at("vaultV2")]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setMinSolvencyThreshold(uint256)", [30_000n]);
  s.reverts("ProtocolInsolvency", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("ProtocolInsolvency", "alice", p, REDEEM, [usdc, KUSD]);
  s.ok("safe", p, "setMinSolvencyThreshold(uint256)", [10_100n]);
  s.ok("safe", p, "setVault(address)", [usdc]);
  s.reverts("ProtocolInsolvency", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "setSolvencyCheckDisabled(bool)", [true]);
  // As deployed: the solvency gate is switched off on both v3 and the live PSM.
  s.ok("safe", p, "setSolvencyCheckDisabled(bool)", [true]);
  s.reverts("OracleDelayTooHigh", "safe", p, "setMaxOracleDelay(address,uint256)", [usdc, 48n * 3600n + 1n]);
  s.ok("safe", p, "setMaxOracleDelay(address,uint256)", [usdc, 26n * 3600n]);

  s.ok("alice", p, MINT, [usdc, 20_000n * USDC]);
  for (const amount of BOUNDARY_AMOUNTS) s.ok("alice", p, MINT, [usdc, amount]);
  // v3 and live select the tier on the kUSD amount floored to USDC units.
  for (const amount of REDEEM_BOUNDARIES) s.ok("alice", p, REDEEM, [usdc, amount]);
  s.ok("alice", p, "swapStableForKUSDTo(address,uint256,address)", [usdc, 1000n * USDC, ACTORS.bob]);
  s.reverts("StableNotSupported", "alice", p, "swapStableForKUSDTo(address,uint256,address)", [
    usdc,
    1000n * USDC,
    zeroAddress,
  ]);
  s.ok("alice", p, "swapKUSDForStableTo(address,uint256,address)", [usdc, 500n * KUSD, ACTORS.bob]);
  s.reverts("StableNotSupported", "alice", p, "swapKUSDForStableTo(address,uint256,address)", [
    usdc,
    KUSD,
    zeroAddress,
  ]);
  s.reverts("StableNotSupported", "alice", p, REDEEM, [at("weth"), KUSD]);
  s.reverts("InsufficientStableReserves", "alice", p, REDEEM, beyondReserves(p));

  // Fee skim: only the Safe, only to the configured treasury, never above the surplus.
  s.reverts("TreasuryNotSet", "safe", p, "skimSurplus(address,uint256)", [usdc, 1n]);
  s.reverts("InvalidTreasury", "safe", p, "setTreasury(address)", [zeroAddress]);
  s.ok("safe", p, "setTreasury(address)", [ACTORS.treasury]);
  s.reverts("ZeroSkimAmount", "safe", p, "skimSurplus(address,uint256)", [usdc, 0n]);
  s.reverts("StableNotSupported", "safe", p, "skimSurplus(address,uint256)", [at("weth"), 1n]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "skimSurplus(address,uint256)", [usdc, 1n]);
  s.reverts("SkimExceedsSurplus", "safe", p, "skimSurplus(address,uint256)", (read) =>
    read(p, "skimmableSurplus(address)", [usdc]).then((x) => [usdc, x + 1n]),
  );
  s.ok("safe", p, "skimSurplus(address,uint256)", (read) =>
    read(p, "skimmableSurplus(address)", [usdc]).then((x) => [usdc, x / 2n]),
  );
  s.ok("safe", p, "skimSurplus(address,uint256)", (read) =>
    read(p, "skimmableSurplus(address)", [usdc]).then((x) => [usdc, x]),
  );

  // Pause: swaps and skims stop; only the admin unpauses.
  s.ok("safe", p, "pause()");
  s.reverts("EnforcedPause", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("EnforcedPause", "alice", p, REDEEM, [usdc, KUSD]);
  s.reverts("EnforcedPause", "safe", p, "skimSurplus(address,uint256)", [usdc, 1n]);
  s.reverts("EnforcedPause", "bob", "borrower", BORROW, [at(p), usdc, USDC, true]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", p, "unpause()");
  s.ok("safe", p, "unpause()");

  // Flash loans: stable-side fees enter the skim ledger, kUSD-side fees do not.
  s.ok("safe", p, "setFlashFee(uint256)", [9n]);
  s.ok("alice", "usdc", "transfer(address,uint256)", [at("borrower"), 1000n * USDC]);
  s.ok("bob", "borrower", BORROW, [at(p), usdc, 10_000n * USDC, true]);
  if (live) {
    // The live PSM burns what it redeems, so it holds no kUSD to lend.
    s.reverts("FlashLoanExceedsBalance", "bob", "borrower", BORROW, [at(p), kusd, KUSD, true]);
  } else {
    s.reverts("ERC20InsufficientBalance", "bob", "borrower", BORROW, [at(p), kusd, 1000n * KUSD, true]);
    s.ok("alice", "kusd", "transfer(address,uint256)", [at("borrower"), 10n * KUSD]);
    s.ok("bob", "borrower", BORROW, [at(p), kusd, 1000n * KUSD, true]);
  }
  s.ok("safe", p, "grantRole(bytes32,address)", [ROLE.ARBITRAGEUR, at("borrower")]);
  s.ok("bob", "borrower", BORROW, [at(p), usdc, 10_000n * USDC, true]);
  s.reverts("ZeroFlashLoanAmount", "bob", "borrower", BORROW, [at(p), usdc, 0n, true]);
  s.reverts("FlashLoanExceedsBalance", "bob", "borrower", BORROW, [at(p), usdc, CAP, true]);
  s.reverts("UnsupportedToken", "bob", "borrower", BORROW, [at(p), at("weth"), 1n, true]);

  // Depeg gate at its 2% edge, the per-stable staleness window, and the explicit opt-out.
  oracleFresh(s, 98_000_000n);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s, 97_990_000n);
  s.reverts("StableDepegged", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.reverts("StableDepegged", "alice", p, REDEEM, [usdc, KUSD]);
  oracleFresh(s);
  s.time(2 * 3600);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setMaxOracleDelay(address,uint256)", [usdc, 0n]);
  s.reverts("OraclePriceStale", "alice", p, MINT, [usdc, 1000n * USDC]);
  oracleFresh(s);
  s.ok("safe", p, "setMaxOracleDelay(address,uint256)", [usdc, 26n * 3600n]);
  s.ok("safe", p, "setOracle(address,address)", [usdc, zeroAddress]);
  s.reverts("DepegOracleNotConfigured", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setDepegCheckDisabled(bool)", [true]);
  s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setDepegCheckDisabled(bool)", [false]);
  s.ok("safe", p, "setOracle(address,address)", [usdc, at("feed")]);

  // The cap binds on max(exposure counter, held balance).
  s.ok("safe", p, "setStableCap(address,uint256)", (read) =>
    read("usdc", "balanceOf(address)", [at(p)]).then((b) => [usdc, b + 500n * USDC]),
  );
  s.reverts("StableCapExceeded", "alice", p, MINT, [usdc, 1000n * USDC]);
  s.ok("safe", p, "setStableCap(address,uint256)", [usdc, CAP]);

  if (live) {
    // Minting off: the PSM keeps the redeemed kUSD instead of burning it, and dispenses it.
    s.ok("safe", p, "setMintingEnabled(bool)", [false]);
    s.ok("alice", p, REDEEM, [usdc, 2000n * KUSD]);
    s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
    s.ok("safe", p, "setMintingEnabled(bool)", [true]);
    s.ok("alice", p, REDEEM, [usdc, 1000n * KUSD]);
  } else {
    // 2026-07-10: MINTER revoked on v3; the Safe turns minting off and v3 swaps its inventory.
    s.ok("operator", "kusd", "revokeRole(bytes32,address)", [ROLE.MINTER, at(p)]);
    s.reverts("KusdMintFailed", "alice", p, MINT, [usdc, 1000n * USDC]);
    s.ok("safe", p, "setMintingEnabled(bool)", [false]);
    s.ok("alice", p, MINT, [usdc, 1000n * USDC]);
    s.ok("alice", p, REDEEM, [usdc, 1000n * KUSD]);
  }
  s.ok("safe", p, "renounceRole(bytes32,address)", [ROLE.MANAGER, ACTORS.safe]);
  s.reverts("AccessControlUnauthorizedAccount", "safe", p, "pause()");
  s.ok("safe", p, "grantRole(bytes32,address)", [ROLE.MANAGER, ACTORS.safe]);
  return s.section;
}
