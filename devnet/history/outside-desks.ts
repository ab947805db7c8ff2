/**
 * Outside desks at the live PSM: a flash loan of the whole reserve, and a walk of the fee
 * ladder's every tier edge.
 */
import { maxUint256 } from "viem";
import { DATES } from "../timeline.js";
import { FEE_TIERS, usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const outsideDesks: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.flashLoan, "flash loan of the whole reserve", async () => {
    const reserve = await h.read<bigint>("psmMint", "maxFlashLoan", [h.addr("usdc")]);
    h.landmark(
      "flashLoan",
      await h.send(k.arbitrageur, "flashBorrower", "borrow", [h.addr("psmMint"), h.addr("usdc"), reserve, true]),
    );
  });
  h.schedule(DATES.feeLadderWalk, "an outside desk walks the live PSM's fee ladder", async () => {
    // Mints and redemptions one unit either side of every tier boundary, so the indexed
    // history holds each tier and each edge (thresholds are lower bounds in USDC units).
    const w = k.ladderWalker;
    await h.send(k.circle, "usdc", "mint", [w.address, usdc(2_700_000)]);
    await h.send(w, "usdc", "approve", [h.addr("psmMint"), maxUint256]);
    await h.send(w, "kUSD", "approve", [h.addr("psmMint"), maxUint256]);
    for (const t of FEE_TIERS) {
      for (const size of [t.threshold - 1n, t.threshold]) {
        h.landmark(`feeLadder:mint:${size}`, await h.send(w, "psmMint", "swapStableForKUSD", [h.addr("usdc"), size]));
      }
    }
    await h.send(w, "psmMint", "swapStableForKUSD", [h.addr("usdc"), usdc(10_000)]);
    for (const t of [...FEE_TIERS].reverse()) {
      // One kUSD wei below the boundary is one USDC unit below it once converted (floor).
      for (const kusdIn of [t.threshold * 10n ** 12n - 1n, t.threshold * 10n ** 12n]) {
        h.landmark(
          `redemption:external:feeLadder:${kusdIn}`,
          await h.send(w, "psmMint", "swapKUSDForStable", [h.addr("usdc"), kusdIn]),
        );
      }
    }
  });
};
