/**
 * 2026-06-16, the ceremony: treasury v2, the v3 PSM takes MINTER_ROLE from PSM v1, vault v2
 * deployed as a minter; the founder mints in era 2.
 */
import { zeroAddress } from "viem";
import { DATES, HOUR } from "../timeline.js";
import { usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const ceremony: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.ceremony, "2026-06-16 ceremony", async () => {
    const dep = k.deployer;
    await h.deploy("treasuryV2", "KerneTreasury", dep, [zeroAddress, zeroAddress, zeroAddress]);
    await h.send(dep, "treasuryV2", "transferOwnership", [h.addr("multisig")]);
    await h.deployPsm("psmRetiredMint", "treasuryV2");
    await h.grantMinter("safe", "psmRetiredMint");
    await h.revokeMinter("psmRedeemReserve");
    await h.deploy("vaultV2", "KerneVault", dep, [
      h.addr("weth"),
      "Kerne ETH Vault v2",
      "kETHv2",
      h.addr("multisig"),
      k.operator.address,
      k.operator.address,
    ]);
    await h.grantMinter("safe", "vaultV2");
  });
  h.schedule(DATES.ceremony + HOUR, "founder mints in era 2", async () => {
    await h.mintFor(k.operator, usdc(200_000));
  });
};
