/**
 * Redemptions against all three PSMs: the founder's at each of them, and an outside wallet's at
 * the live one.
 */
import { maxUint256 } from "viem";
import type { DevnetKey } from "../keys.js";
import { DATES, DAY } from "../timeline.js";
import { kusd, usdc } from "./constants.js";
import type { Chapter, HistoryWriter } from "./writer.js";

export const redemptions: Chapter = (h) => {
  const k = h.keys;
  h.schedule(
    DATES.founderRedeemLegacy,
    "founder redeems (legacy PSM)",
    redeem(h, "redemption:founder:psmRedeemReserve", k.operator, "psmRedeemReserve", kusd(20_000)),
  );
  h.schedule(
    DATES.founderRedeemRetired,
    "founder redeems (retired mint PSM)",
    redeem(h, "redemption:founder:psmRetiredMint", k.operator, "psmRetiredMint", kusd(15_000)),
  );
  h.schedule(
    DATES.founderRedeemMint,
    "founder redeems (mint PSM)",
    redeem(h, "redemption:founder:psmMint", k.operator, "psmMint", kusd(10_000)),
  );
  h.schedule(DATES.externalRedeem - 2 * DAY, "external wallet mints", async () => {
    await h.mintFor(k.externalRedeemer, usdc(5_000));
  });
  h.schedule(
    DATES.externalRedeem,
    "external redemption",
    redeem(h, "redemption:external:psmMint", k.externalRedeemer, "psmMint", kusd(5_000)),
  );
};

/** `who` redeems `amount` kUSD at `psm`, recorded as the landmark `name`. */
function redeem(h: HistoryWriter, name: string, who: DevnetKey, psm: string, amount: bigint) {
  return async () => {
    await h.send(who, "kUSD", "approve", [h.addr(psm), maxUint256]);
    h.landmark(name, await h.send(who, psm, "swapKUSDForStable", [h.addr("usdc"), amount]));
  };
}
