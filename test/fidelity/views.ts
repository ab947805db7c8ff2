/**
 * The view calls compared after each step. `dynamic` views are read after every step of their
 * family (kUSD's after every step of all); `static` ones (names, constants) once per section.
 */

import { ROLE, TIER_AMOUNTS_USDC } from "./constants.js";
import { ACTORS, type Role } from "./deploy-pair.js";
import type { FamilyId } from "./reference-bundles.js";
import { type Arg, argLabel, at, type Who } from "./role-ref.js";

export type ViewDef = { label: string; to: Role; sig: string; args: Arg[]; from?: Who };

function view(to: Role, sig: string, args: Arg[] = [], from?: Who): ViewDef {
  const name = sig.slice(0, sig.indexOf("("));
  return {
    label: `${to}.${name}(${args.map(argLabel).join(", ")})${from ? ` from ${argLabel(from)}` : ""}`,
    to,
    sig,
    args,
    from,
  };
}

const actor = (name: keyof typeof ACTORS): Arg => ACTORS[name];

/** Every tier boundary and one unit either side of it, in USDC units. */
export const BOUNDARY_AMOUNTS: bigint[] = TIER_AMOUNTS_USDC.flatMap((t) => [t - 1n, t, t + 1n]);

function kusdDynamic(): ViewDef[] {
  return [
    view("kusd", "totalSupply()"),
    view("kusd", "decimals()"),
    ...(["safe", "operator", "alice", "bob", "treasury"] as const).map((a) =>
      view("kusd", "balanceOf(address)", [actor(a)]),
    ),
    ...(["psmV1", "psmV3", "psmLive", "skusdV1", "skusdLive", "borrower"] as const).map((r) =>
      view("kusd", "balanceOf(address)", [at(r)]),
    ),
    view("kusd", "hasRole(bytes32,address)", [ROLE.MINTER, actor("operator")]),
    ...(["psmV1", "psmV3", "psmLive"] as const).map((r) =>
      view("kusd", "hasRole(bytes32,address)", [ROLE.MINTER, at(r)]),
    ),
    view("kusd", "hasRole(bytes32,address)", [ROLE.DEFAULT_ADMIN, actor("operator")]),
    view("kusd", "allowance(address,address)", [actor("alice"), actor("bob")]),
  ];
}

function psmDynamic(psm: "psmV1" | "psmV3" | "psmLive"): ViewDef[] {
  const usdc = at("usdc");
  const common = [
    view(psm, "paused()"),
    view(psm, "mintingEnabled()"),
    view(psm, "supportedStables(address)", [usdc]),
    view(psm, "swapFees(address)", [usdc]),
    view(psm, "stableCaps(address)", [usdc]),
    view(psm, "currentExposure(address)", [usdc]),
    ...[0n, 1n, 2n, 3n].map((i) => view(psm, "tieredFees(address,uint256)", [usdc, i])),
    ...[0n, 1n, ...BOUNDARY_AMOUNTS, 10n ** 18n].map((x) => view(psm, "getFee(address,uint256)", [usdc, x])),
    view(psm, "flashFeeBps()"),
    view(psm, "virtualPegEnabled()"),
    view(psm, "virtualPegFeeBps()"),
    view(psm, "maxFlashLoan(address)", [usdc]),
    view(psm, "maxFlashLoan(address)", [at("kusd")]),
    view(psm, "maxFlashLoan(address)", [at("weth")]),
    view(psm, "flashFee(address,uint256)", [usdc, 1_000_000_000_000n], at("borrower")),
    view(psm, "flashFee(address,uint256)", [at("weth"), 1n]),
    view(psm, "oracles(address)", [usdc]),
    view(psm, "maxDepegBps(address)", [usdc]),
    view(psm, "vault()"),
    view(psm, "minSolvencyThreshold()"),
    view(psm, "hasRole(bytes32,address)", [ROLE.DEFAULT_ADMIN, actor("safe")]),
    view(psm, "hasRole(bytes32,address)", [ROLE.MANAGER, actor("safe")]),
    view(psm, "hasRole(bytes32,address)", [ROLE.MANAGER, actor("alice")]),
    view(psm, "hasRole(bytes32,address)", [ROLE.ARBITRAGEUR, at("borrower")]),
    view("usdc", "balanceOf(address)", [at(psm)]),
    view("usdc", "balanceOf(address)", [actor("alice")]),
    view("usdc", "balanceOf(address)", [actor("bob")]),
    view("usdc", "balanceOf(address)", [actor("treasury")]),
    view("usdc", "balanceOf(address)", [at("borrower")]),
  ];
  if (psm === "psmV1") {
    return [
      ...common,
      view(psm, "insuranceFund()"),
      view(psm, "insuranceDrawCooldown()"),
      view(psm, "maxInsuranceDrawPerPeriod()"),
    ];
  }
  return [
    ...common,
    view(psm, "accruedFees(address)", [usdc]),
    view(psm, "skimmableSurplus(address)", [usdc]),
    view(psm, "treasury()"),
    view(psm, "solvencyCheckDisabled()"),
    view(psm, "depegCheckDisabled()"),
    view(psm, "maxOracleDelay(address)", [usdc]),
  ];
}

function psmStatic(psm: "psmV1" | "psmV3" | "psmLive"): ViewDef[] {
  const common = [
    view(psm, "MANAGER_ROLE()"),
    view(psm, "ARBITRAGEUR_ROLE()"),
    view(psm, "DEFAULT_ADMIN_ROLE()"),
    view(psm, "kUSD()"),
    view(psm, "DEFAULT_MAX_DEPEG_BPS()"),
    view(psm, "supportsInterface(bytes4)", ["0x7965db0b"]),
    view(psm, "supportsInterface(bytes4)", ["0x01ffc9a7"]),
    view(psm, "supportsInterface(bytes4)", ["0xffffffff"]),
  ];
  if (psm === "psmV1") return common;
  return [...common, view(psm, "DEFAULT_MAX_ORACLE_DELAY()"), view(psm, "MAX_ORACLE_DELAY_BOUND()")];
}

function skusdDynamic(s: "skusdV1" | "skusdLive"): ViewDef[] {
  const common = [
    view(s, "totalSupply()"),
    view(s, "totalAssets()"),
    view(s, "decimals()"),
    view(s, "convertToAssets(uint256)", [10n ** 24n]),
    view(s, "convertToShares(uint256)", [10n ** 18n]),
    ...(["alice", "bob", "safe"] as const).map((a) => view(s, "balanceOf(address)", [actor(a)])),
    view("kusd", "balanceOf(address)", [at(s)]),
    view(s, "maxWithdraw(address)", [actor("alice")]),
    view(s, "maxRedeem(address)", [actor("alice")]),
    view(s, "maxDeposit(address)", [actor("alice")]),
    view(s, "previewDeposit(uint256)", [10n ** 18n]),
    view(s, "previewMint(uint256)", [10n ** 24n]),
    view(s, "previewWithdraw(uint256)", [10n ** 18n]),
    view(s, "previewRedeem(uint256)", [10n ** 24n]),
    view(s, "hasRole(bytes32,address)", [ROLE.STRATEGIST, actor("safe")]),
    view(s, "hasRole(bytes32,address)", [ROLE.STRATEGIST, actor("alice")]),
    view(s, "hasRole(bytes32,address)", [ROLE.DEFAULT_ADMIN, actor("safe")]),
  ];
  if (s === "skusdV1") return common;
  return [
    ...common,
    view(s, "lockedYield()"),
    view(s, "lastYieldAmount()"),
    view(s, "lastYieldTime()"),
    view(s, "yieldVestingPeriod()"),
  ];
}

function skusdStatic(s: "skusdV1" | "skusdLive"): ViewDef[] {
  const common = [
    view(s, "name()"),
    view(s, "symbol()"),
    view(s, "asset()"),
    view(s, "STRATEGIST_ROLE()"),
    view(s, "maxMint(address)", [actor("alice")]),
  ];
  if (s === "skusdV1") return common;
  return [
    ...common,
    view(s, "MIN_VESTING_PERIOD()"),
    view(s, "MAX_VESTING_PERIOD()"),
    view(s, "DEFAULT_VESTING_PERIOD()"),
  ];
}

function vaultDynamic(v: "vaultV1" | "vaultV2"): ViewDef[] {
  const common = [
    view(v, "totalSupply()"),
    view(v, "totalAssets()"),
    view(v, "decimals()"),
    view(v, "getSolvencyRatio()"),
    view(v, "convertToAssets(uint256)", [10n ** 21n]),
    view(v, "convertToShares(uint256)", [10n ** 18n]),
    ...(["alice", "bob"] as const).map((a) => view(v, "balanceOf(address)", [actor(a)])),
    view(v, "balanceOf(address)", [at(v)]),
    ...(["alice", "bob", "safe", "treasury", "exchange"] as const).map((a) =>
      view("weth", "balanceOf(address)", [actor(a)]),
    ),
    view("weth", "balanceOf(address)", [at(v)]),
    view(v, "paused()"),
    view(v, "maxDeposit(address)", [actor("alice")]),
    view(v, "maxMint(address)", [actor("alice")]),
    view(v, "maxWithdraw(address)", [actor("alice")]),
    view(v, "maxRedeem(address)", [actor("alice")]),
    view(v, "previewDeposit(uint256)", [10n ** 18n]),
    view(v, "previewMint(uint256)", [10n ** 21n]),
    view(v, "offChainAssets()"),
    view(v, "l1Assets()"),
    view(v, "hedgingReserve()"),
    view(v, "withdrawalCooldown()"),
    view(v, "getWithdrawalRequestCount(address)", [actor("alice")]),
    view(v, "withdrawalRequests(address,uint256)", [actor("alice"), 0n]),
    view(v, "withdrawalRequests(address,uint256)", [actor("alice"), 1n]),
    view(v, "whitelistEnabled()"),
    view(v, "treasury()"),
    view(v, "founder()"),
    view(v, "insolventSince()"),
    view(v, "minSolvencyThreshold()"),
    view(v, "maxDepositLimit()"),
    view(v, "maxWithdrawLimit()"),
    view(v, "lastReportedTimestamp()"),
    view(v, "primeAccounts(address)", [actor("bob")]),
    view(v, "getProjectedAPY()"),
    view(v, "hasRole(bytes32,address)", [ROLE.STRATEGIST, actor("operator")]),
    view(v, "hasRole(bytes32,address)", [ROLE.STRATEGIST, actor("alice")]),
    view(v, "hasRole(bytes32,address)", [ROLE.PAUSER, actor("operator")]),
    view(v, "hasRole(bytes32,address)", [ROLE.PAUSER, actor("safe")]),
    view(v, "hasRole(bytes32,address)", [ROLE.DEFAULT_ADMIN, actor("safe")]),
    view(v, "hasRole(bytes32,address)", [ROLE.DEFAULT_ADMIN, actor("operator")]),
  ];
  if (v === "vaultV1") {
    return [
      ...common,
      view(v, "flashFeeBps()"),
      view(v, "maxFlashLoan(address)", [at("weth")]),
      view(v, "flashFee(address,uint256)", [at("weth"), 10n ** 18n], "bob"),
      view(v, "flashFee(address,uint256)", [at("weth"), 10n ** 18n], "operator"),
    ];
  }
  return [
    ...common,
    view(v, "depositFeeBps()"),
    view(v, "genesisPhaseActive()"),
    view(v, "genesisPhaseDeposits()"),
    view(v, "genesisPhaseEndedAt()"),
    view(v, "getEffectivePerformanceFee()"),
    view(v, "getCurrentFounderRevenueBps()"),
    view(v, "crCircuitBreakerActive()"),
    view(v, "crSoftAlertActive()"),
    view(v, "emergencyRecipient()"),
    view(v, "rewardReserveRecipient()"),
    view(v, "maxLiquidationPerHourBps()"),
    view(v, "lastFounderCaptureTimestamp()"),
    view(v, "maxOffChainChangeRateBps()"),
    view(v, "offChainUpdateCooldown()"),
    view(v, "dynamicCRBuffer()"),
  ];
}

function vaultStatic(v: "vaultV1" | "vaultV2"): ViewDef[] {
  const common = [
    view(v, "name()"),
    view(v, "symbol()"),
    view(v, "asset()"),
    view(v, "getExchangeDepositAddress()"),
    view(v, "GRACE_PERIOD()"),
    view(v, "STRATEGIST_ROLE()"),
    view(v, "PAUSER_ROLE()"),
    view(v, "grossPerformanceFeeBps()"),
    view(v, "insuranceFundBps()"),
  ];
  if (v === "vaultV1") return common;
  return [
    ...common,
    view(v, "GENESIS_TVL_THRESHOLD()"),
    view(v, "GROWTH_TVL_THRESHOLD()"),
    view(v, "MAX_DEPOSIT_FEE_BPS()"),
    view(v, "CRITICAL_CR_THRESHOLD()"),
    view(v, "WARNING_CR_THRESHOLD()"),
    view(v, "SAFE_CR_THRESHOLD()"),
    view(v, "factory()"),
    view(v, "maxFounderCaptureBps()"),
  ];
}

function kusdStatic(): ViewDef[] {
  return [
    view("kusd", "name()"),
    view("kusd", "symbol()"),
    view("kusd", "MINTER_ROLE()"),
    view("kusd", "eip712Domain()"),
    view("kusd", "nonces(address)", [actor("alice")]),
    view("kusd", "supportsInterface(bytes4)", ["0x7965db0b"]),
  ];
}

export function dynamicViews(family: FamilyId): ViewDef[] {
  switch (family) {
    case "kusd":
      return kusdDynamic();
    case "psmV1":
    case "psmV3":
    case "psmLive":
      return [...psmDynamic(family), ...kusdDynamic()];
    case "skusdV1":
    case "skusdLive":
      return [...skusdDynamic(family), ...kusdDynamic()];
    case "vaultV1":
    case "vaultV2":
      return vaultDynamic(family);
  }
}

export function staticViews(family: FamilyId): ViewDef[] {
  switch (family) {
    case "kusd":
      return kusdStatic();
    case "psmV1":
    case "psmV3":
    case "psmLive":
      return psmStatic(family);
    case "skusdV1":
    case "skusdLive":
      return skusdStatic(family);
    case "vaultV1":
    case "vaultV2":
      return vaultStatic(family);
  }
}
