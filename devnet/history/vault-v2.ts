/** Vault v2 wound down: deposits shut, MINTER_ROLE revoked, its mirror of the venue deposit. */
import { parseEther } from "viem";
import { DATES, DAY } from "../timeline.js";
import { accountAt } from "../venue/hedge.js";
import type { Chapter } from "./writer.js";

export const vaultV2: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.vaultV2Whitelist, "vault v2 deposits shut", async () => {
    await h.safe("vaultV2", "setWhitelistEnabled", [true]);
  });
  h.schedule(DATES.vaultV2MinterRevoked, "vault v2 loses MINTER_ROLE", async () => {
    await h.revokeMinter("vaultV2");
  });
  h.schedule(DATES.venueDeposit + DAY, "vault v2 mirror", async () => {
    const a = accountAt(h.d.now);
    await h.send(k.operator, "vaultV2", "updateL1Assets", [parseEther((50_000 / a.markPx).toFixed(18))]);
  });
};
