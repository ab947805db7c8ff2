/**
 * 2026-07-10, the mint PSM redeployed: treasury v3, the live PSM takes MINTER_ROLE from the v3
 * PSM; the founder mints in era 3.
 */
import { zeroAddress } from "viem";
import { DATES, HOUR } from "../timeline.js";
import { usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const mintPsmRedeploy: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.mintPsmRedeploy, "mint PSM redeploy", async () => {
    const dep = k.deployer;
    await h.deploy("treasury", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
    await h.send(dep, "treasury", "transferOwnership", [h.addr("multisig")]);
    await h.deployPsm("psmMint", "treasury");
    await h.grantMinter("safe", "psmMint");
    await h.revokeMinter("psmRetiredMint");
  });
  h.schedule(DATES.mintPsmRedeploy + HOUR, "founder mints in era 3", async () => {
    await h.mintFor(k.operator, usdc(300_000));
  });
};
