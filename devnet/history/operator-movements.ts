/**
 * Movements among the operator's accounts: the disclosed venue deposit, the multisig funded and
 * topping up the mint PSM, the insurance fund topped up and treasury v2 swept; and the one
 * transfer that breaks the account-registry rule.
 */
import { parseEther } from "viem";
import { DATES } from "../timeline.js";
import { MARGIN_DEPOSITS } from "../venue/hedge.js";
import { usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const operatorMovements: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.venueDeposit, "disclosed venue deposit", async () => {
    const amount = usdc(MARGIN_DEPOSITS.find((m) => m.onChain)!.usd);
    await h.send(k.circle, "usdc", "mint", [k.operator.address, amount]);
    h.landmark("disclosedVenueDeposit", await h.send(k.operator, "usdc", "transfer", [h.addr("venueBridge"), amount]));
  });
  h.schedule(DATES.safeFunding, "operator funds the multisig", async () => {
    await h.send(k.circle, "usdc", "mint", [k.operator.address, usdc(150_000)]);
    h.landmark("safeFunding", await h.send(k.operator, "usdc", "transfer", [h.addr("multisig"), usdc(150_000)]));
    await h.send(k.operator, "weth", "transfer", [h.addr("multisig"), parseEther("1")]);
  });
  h.schedule(DATES.psmTopUp, "multisig tops up the mint PSM", async () => {
    h.landmark("psmTopUp", await h.safe("usdc", "transfer", [h.addr("psmMint"), usdc(100_000)]));
  });
  h.schedule(DATES.violation, "the registry violation", async () => {
    h.landmark(
      "violation",
      await h.send(k.hedgeWatchOnly, "weth", "transfer", [k.unlistedRecipient.address, parseEther("2")]),
    );
  });
  h.schedule(DATES.insuranceTopUp, "movements among operator accounts", async () => {
    await h.safe("usdc", "transfer", [h.addr("insuranceFund"), usdc(25_000)]);
    await h.send(k.hedgeWatchOnly, "weth", "transfer", [h.addr("insuranceFund"), parseEther("3")]);
    const v2Balance = await h.read<bigint>("usdc", "balanceOf", [h.addr("treasuryV2")]);
    if (v2Balance > 0n) {
      h.landmark(
        "treasurySweep",
        await h.safe("treasuryV2", "emergencyWithdraw", [h.addr("usdc"), v2Balance, h.addr("treasury")]),
      );
    }
  });
};
