/**
 * The PSMs operated: an hour of minting from inventory, the fee skim and the prior mint PSM's
 * cap through the timelock, and the pause drill (the guardian pauses, the timelock unpauses).
 */
import { maxUint256 } from "viem";
import { DATES, HOUR } from "../timeline.js";
import { kusd, usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const psmOperations: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.mintingOffDrill, "live PSM mints from inventory for an hour", async () => {
    // With minting off the live PSM keeps redeemed kUSD as inventory and pays mints out of it;
    // with minting on it burns what it redeems. Both in one job so no user mint lands between.
    await h.safe("psmMint", "setMintingEnabled", [false]);
    await h.send(k.operator, "kUSD", "approve", [h.addr("psmMint"), maxUint256]);
    h.landmark(
      "redemption:inventory:psmMint",
      await h.send(k.operator, "psmMint", "swapKUSDForStable", [h.addr("usdc"), kusd(4_000)]),
    );
    h.landmark("mintFromInventory", await h.mintFor(k.externalRedeemer, usdc(2_500), "psmMint"));
    await h.safe("psmMint", "setMintingEnabled", [true]);
  });
  // PSM v1 has no skim: its fees stay in its reserve. The retired mint PSM's mint fees go, and
  // since the handover a skim (MANAGER_ROLE) waits out the timelock's delay.
  h.timelocked(
    DATES.feeSkim,
    "fee skim",
    "psmRetiredMint",
    "skimSurplus",
    async () => [h.addr("usdc"), await h.read<bigint>("psmRetiredMint", "skimmableSurplus", [h.addr("usdc")])],
    "feeSkim",
  );
  // The guardian pauses at once (at the Safe's request); unpausing is the admin's, so it
  // waits 48 h in the timelock.
  h.schedule(DATES.pauseDrill, "pause drill", async () => {
    h.landmark("pause", await h.safe("pauseGuardian", "pause", [h.addr("psmRetiredMint")]));
  });
  h.timelocked(DATES.pauseDrill + 60, "pause drill: unpause", "psmRetiredMint", "unpause", () => [], "unpause");
  // The redeem-only prior PSM is capped at what it holds, through the timelock (MANAGER_ROLE is
  // the timelock's since the handover): at its cap from then on, since the v3 cap check adds to
  // max(currentExposure, balanceOf) and nothing moves its USDC in the meantime.
  h.timelocked(
    DATES.insuranceTopUp + HOUR,
    "cap the prior mint PSM at what it holds",
    "psmRetiredMint",
    "setStableCap",
    async () => {
      const [exposure, held] = await Promise.all([
        h.read<bigint>("psmRetiredMint", "currentExposure", [h.addr("usdc")]),
        h.read<bigint>("usdc", "balanceOf", [h.addr("psmRetiredMint")]),
      ]);
      return [h.addr("usdc"), exposure > held ? exposure : held];
    },
    "psmAtCap",
  );
};
