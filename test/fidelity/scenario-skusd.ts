/**
 * skUSD sections: ERC-4626 deposit/mint/withdraw/redeem, distributeYield (v1 credits it at once
 * and emits nothing of its own; live vests it and emits YieldDistributed), a same-block bracket
 * around a distribution, donations and their sweep, the vesting-period setter (live only) and
 * the last exit (live resets an orphaned vest).
 */
import { maxUint256, zeroAddress } from "viem";
import { KUSD, ROLE, USDC } from "./constants.js";
import { ACTORS } from "./deploy-pair.js";
import { at } from "./role-ref.js";
import { type Section, SectionBuilder } from "./step.js";

export function skusdSection(v: "skusdV1" | "skusdLive"): Section {
  const live = v === "skusdLive";
  const s = new SectionBuilder(
    v,
    live ? "skUSD live (0x96F5…): streamed yield" : "skUSD v1 (0xdEd7…): instant yield",
    v,
  );
  const absentOnV1 = live ? undefined : "revert (no data)";

  s.ok("operator", "feed", "submit(int256)", [100_000_000n]);
  s.ok("alice", "psmLive", "swapStableForKUSD(address,uint256)", [at("usdc"), 20_000n * USDC]);
  for (const who of ["alice", "bob", "safe"] as const)
    s.ok(who, "kusd", "approve(address,uint256)", [at(v), maxUint256]);
  s.ok("alice", "kusd", "transfer(address,uint256)", [ACTORS.safe, 1000n * KUSD]);
  s.ok("alice", "kusd", "transfer(address,uint256)", [ACTORS.bob, 2000n * KUSD]);

  s.ok("alice", v, "deposit(uint256,address)", [1000n * KUSD, ACTORS.alice]);
  s.ok("bob", v, "mint(uint256,address)", [500n * 10n ** 24n, ACTORS.bob]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "distributeYield(uint256)", [KUSD]);
  s.ok("safe", v, "distributeYield(uint256)", [100n * KUSD]);
  // Same block as nothing in between: v1 pays bob a share of the yield just distributed, live does not.
  s.ok("bob", v, "redeem(uint256,address,address)", (read) =>
    read(v, "balanceOf(address)", [ACTORS.bob]).then((shares) => [shares, ACTORS.bob, ACTORS.bob]),
  );
  s.time(12 * 3600);
  s.ok("alice", v, "withdraw(uint256,address,address)", [500n * KUSD, ACTORS.alice, ACTORS.alice]);
  s.reverts("ERC4626ExceededMaxWithdraw", "alice", v, "withdraw(uint256,address,address)", [
    10n ** 30n,
    ACTORS.alice,
    ACTORS.alice,
  ]);
  s.reverts("ERC20InsufficientAllowance", "bob", v, "redeem(uint256,address,address)", [
    10n ** 24n,
    ACTORS.bob,
    ACTORS.alice,
  ]);
  s.ok("alice", v, "approve(address,uint256)", [ACTORS.bob, 10n ** 24n]);
  s.ok("bob", v, "redeem(uint256,address,address)", [10n ** 24n, ACTORS.bob, ACTORS.alice]);

  s.reverts(absentOnV1 ?? "InvalidVestingPeriod", "safe", v, "setYieldVestingPeriod(uint256)", [1800n]);
  s.reverts(absentOnV1 ?? "AccessControlUnauthorizedAccount", "alice", v, "setYieldVestingPeriod(uint256)", [7200n]);
  if (live) s.ok("safe", v, "setYieldVestingPeriod(uint256)", [7200n]);
  else s.reverts("revert (no data)", "safe", v, "setYieldVestingPeriod(uint256)", [7200n]);

  // A donation is not credited to holders; the strategist sweeps it.
  s.ok("alice", "kusd", "transfer(address,uint256)", [at(v), 5n * KUSD]);
  s.reverts("zero recipient", "safe", v, "sweepDonations(address)", [zeroAddress]);
  s.reverts("AccessControlUnauthorizedAccount", "alice", v, "sweepDonations(address)", [ACTORS.treasury]);
  s.ok("safe", v, "sweepDonations(address)", [ACTORS.treasury]);

  s.ok("safe", v, "grantRole(bytes32,address)", [ROLE.STRATEGIST, ACTORS.alice]);
  s.ok("alice", v, "distributeYield(uint256)", [10n * KUSD]);
  s.ok("safe", v, "revokeRole(bytes32,address)", [ROLE.STRATEGIST, ACTORS.alice]);
  s.time(3600);
  // The last exit: live drops the still-vesting remainder from its ledger (sweepable afterwards).
  s.ok("alice", v, "redeem(uint256,address,address)", (read) =>
    read(v, "balanceOf(address)", [ACTORS.alice]).then((shares) => [shares, ACTORS.alice, ACTORS.alice]),
  );
  s.ok("safe", v, "sweepDonations(address)", [ACTORS.treasury]);
  s.ok("alice", v, "deposit(uint256,address)", [KUSD, ACTORS.alice]);
  s.reverts("ERC4626ExceededMaxRedeem", "alice", v, "redeem(uint256,address,address)", [
    10n ** 30n,
    ACTORS.alice,
    ACTORS.alice,
  ]);
  s.ok("safe", v, "distributeYield(uint256)", [KUSD]);
  s.time(86_400);
  s.ok("alice", v, "withdraw(uint256,address,address)", [KUSD, ACTORS.bob, ACTORS.alice]);
  return s.section;
}
