/**
 * 2026-08-03 to 08-06, custody to the timelock: the timelock and the pause guardian deployed,
 * the timelock made admin beside the Safe, then the 13-call handover.
 */
import { zeroAddress } from "viem";
import { DATES, HOUR } from "../timeline.js";
import { DEFAULT_ADMIN_ROLE, MANAGER_ROLE, PSM_KEYS, TIMELOCK_DELAY } from "./constants.js";
import type { Chapter } from "./writer.js";

export const timelockHandover: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.timelockAdminGranted - HOUR, "timelock and pause guardian deployed", async () => {
    const safe = h.addr("multisig");
    // Self-administered: no admin account, so the deploy emits exactly four role events.
    await h.deploy("timelock", "Timelock", k.deployer, [TIMELOCK_DELAY, [safe], [safe], zeroAddress]);
    await h.deploy("pauseGuardian", "PauseGuardian", k.deployer, [safe, PSM_KEYS.map((p) => h.addr(p))]);
  });
  h.schedule(DATES.timelockAdminGranted, "timelock made admin beside the Safe", async () => {
    // From here until the handover both hold DEFAULT_ADMIN_ROLE, so the delay does not bind.
    for (const c of ["kUSD", ...PSM_KEYS]) await h.safe(c, "grantRole", [DEFAULT_ADMIN_ROLE, h.addr("timelock")]);
  });
  h.schedule(DATES.timelockHandover, "custody handover", async () => {
    // The operator's batch was 13 calls in one Safe transaction (MultiSend); our Safe makes one
    // call per transaction, so the same 13 calls run in 13 consecutive blocks, in the same order:
    // MANAGER to the timelock and to the guardian on each PSM (so an emergency stop exists at
    // every step), then the Safe's own MANAGER and admin roles revoked, kUSD's admin last.
    for (const p of PSM_KEYS) {
      await h.safe(p, "grantRole", [MANAGER_ROLE, h.addr("timelock")]);
      await h.safe(p, "grantRole", [MANAGER_ROLE, h.addr("pauseGuardian")]);
    }
    for (const p of PSM_KEYS) {
      await h.safe(p, "revokeRole", [MANAGER_ROLE, h.addr("multisig")]);
      await h.safe(p, "revokeRole", [DEFAULT_ADMIN_ROLE, h.addr("multisig")]);
    }
    h.landmark("timelockHandover", await h.safe("kUSD", "revokeRole", [DEFAULT_ADMIN_ROLE, h.addr("multisig")]));
  });
};
