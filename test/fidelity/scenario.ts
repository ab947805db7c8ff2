/**
 * The whole lockstep scenario, one section per contract family: setup of the supporting tokens,
 * kUSD itself, the three PSMs, both skUSDs and both vaults. The PSM sections run before the vault
 * sections so the PSMs' solvency gate reads an empty vault v2 (ratio 20000), as on Base.
 */
import { maxUint256 } from "viem";
import { KUSD, ROLE, USDC } from "./constants.js";
import { ACTORS } from "./deploy-pair.js";
import { at } from "./role-ref.js";
import { psmV1Section, psmV3LikeSection } from "./scenario-psm.js";
import { skusdSection } from "./scenario-skusd.js";
import { vaultV1Section, vaultV2Section } from "./scenario-vault.js";
import { type Section, SectionBuilder } from "./step.js";

function kusdSection(): Section {
  const s = new SectionBuilder("kusd", "kUSD (0x5C2E…): roles, transfers, burns; funding of the actors", "kusd");
  s.ok("safe", "usdc", "mint(address,uint256)", [ACTORS.alice, 30_000_000n * USDC]);
  s.ok("safe", "usdc", "mint(address,uint256)", [ACTORS.bob, 1_000_000n * USDC]);
  s.reverts("OwnableUnauthorizedAccount", "alice", "usdc", "mint(address,uint256)", [ACTORS.alice, 1n]);
  // The deployed constructor gives its admin (the operator's hot wallet) MINTER_ROLE as well; the
  // mint is burned straight back so a side without that grant re-converges after two steps.
  s.ok("operator", "kusd", "mint(address,uint256)", [ACTORS.operator, 1000n * KUSD]);
  s.ok("operator", "kusd", "burn(uint256)", [1000n * KUSD]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", "kusd", "mint(address,uint256)", [ACTORS.alice, 1n]);
  s.ok("operator", "kusd", "grantRole(bytes32,address)", [ROLE.MINTER, ACTORS.bob]);
  s.ok("bob", "kusd", "mint(address,uint256)", [ACTORS.alice, 1000n * KUSD]);
  s.ok("alice", "kusd", "transfer(address,uint256)", [ACTORS.bob, 100n * KUSD]);
  s.reverts("ERC20InsufficientBalance", "bob", "kusd", "transfer(address,uint256)", [ACTORS.alice, 101n * KUSD]);
  s.ok("alice", "kusd", "approve(address,uint256)", [ACTORS.bob, 50n * KUSD]);
  // Deployed kUSD is plain ERC20Burnable: any allowance lets its holder burn (no BURNER_ROLE).
  s.ok("bob", "kusd", "burnFrom(address,uint256)", [ACTORS.alice, 10n * KUSD]);
  s.ok("bob", "kusd", "burn(uint256)", [5n * KUSD]);
  s.reverts("ERC20InsufficientAllowance", "bob", "kusd", "transferFrom(address,address,uint256)", [
    ACTORS.alice,
    ACTORS.bob,
    41n * KUSD,
  ]);
  s.ok("bob", "kusd", "transferFrom(address,address,uint256)", [ACTORS.alice, ACTORS.bob, 40n * KUSD]);
  s.reverts("revert (no data)", "operator", "kusd", "BURNER_ROLE()");
  s.reverts("AccessControlUnauthorizedAccount", "alice", "kusd", "grantRole(bytes32,address)", [
    ROLE.MINTER,
    ACTORS.alice,
  ]);
  for (const psm of ["psmV1", "psmV3", "psmLive"] as const) {
    s.ok("operator", "kusd", "grantRole(bytes32,address)", [ROLE.MINTER, at(psm)]);
  }
  s.ok("bob", "kusd", "mint(address,uint256)", [ACTORS.bob, KUSD]);
  s.ok("bob", "kusd", "renounceRole(bytes32,address)", [ROLE.MINTER, ACTORS.bob]);
  s.reverts("AccessControlBadConfirmation", "bob", "kusd", "renounceRole(bytes32,address)", [
    ROLE.MINTER,
    ACTORS.alice,
  ]);
  // As on Base today: the operator no longer mints; only contracts hold MINTER_ROLE.
  s.ok("operator", "kusd", "revokeRole(bytes32,address)", [ROLE.MINTER, ACTORS.operator]);
  s.reverts("AccessControlUnauthorizedAccount", "operator", "kusd", "mint(address,uint256)", [ACTORS.alice, 1n]);
  s.ok("alice", "kusd", "approve(address,uint256)", [ACTORS.bob, maxUint256]);
  s.ok("bob", "kusd", "transferFrom(address,address,uint256)", [ACTORS.alice, ACTORS.bob, KUSD]);
  s.ok("alice", "kusd", "approve(address,uint256)", [ACTORS.bob, 0n]);
  s.ok("operator", "feed", "submit(int256)", [100_000_000n]);
  return s.section;
}

export function fidelityScenario(): Section[] {
  return [
    kusdSection(),
    psmV1Section(),
    psmV3LikeSection("psmV3"),
    psmV3LikeSection("psmLive"),
    skusdSection("skusdV1"),
    skusdSection("skusdLive"),
    vaultV1Section(),
    vaultV2Section(),
  ];
}
