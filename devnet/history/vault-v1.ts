/**
 * Vault v1's queue and sweep: an outside depositor enters, queues a withdrawal and claims it; the
 * multisig sweeps to the exchange.
 */
import { maxUint256, parseEther } from "viem";
import { DATES, HOUR } from "../timeline.js";
import type { Chapter } from "./writer.js";

export const vaultV1Queue: Chapter = (h) => {
  const k = h.keys;
  // Vault v1 lets WETH out only through its queue and the admin's sweep (withdraw and redeem
  // revert): an outside depositor leaves through the queue, the multisig sweeps to the
  // exchange deposit address (the operator's venue account).
  h.schedule(DATES.genesis + 3 * HOUR, "outside depositor enters vault v1", async () => {
    await h.send(k.vaultDepositor, "weth", "deposit", [], parseEther("2"));
    await h.send(k.vaultDepositor, "weth", "approve", [h.addr("vaultV1"), maxUint256]);
    await h.send(k.vaultDepositor, "vaultV1", "deposit", [parseEther("2"), k.vaultDepositor.address]);
  });
  h.schedule(DATES.vaultQueueRequest, "vault v1 withdrawal requested", async () => {
    h.landmark(
      "vaultWithdrawalRequested",
      await h.send(k.vaultDepositor, "vaultV1", "requestWithdrawal", [parseEther("1.5")]),
    );
  });
  h.schedule(DATES.vaultSweep, "vault v1 sweep to the exchange", async () => {
    h.landmark("vaultSweep", await h.safe("vaultV1", "sweepToExchange", [parseEther("1")]));
  });
  h.schedule(DATES.vaultQueueClaim, "vault v1 withdrawal claimed", async () => {
    h.landmark("vaultWithdrawalClaimed", await h.send(k.vaultDepositor, "vaultV1", "claimWithdrawal", [0n]));
  });
};
