/**
 * The isolated lending market (Euler-style): deployed by its curator, then supplied by the
 * operator and borrowed from.
 */
import { maxUint256 } from "viem";
import { DATES, DAY } from "../timeline.js";
import { kusd, usdc } from "./constants.js";
import type { Chapter } from "./writer.js";

export const lendingMarket: Chapter = (h) => {
  const k = h.keys;
  h.schedule(DATES.lendingMarket - 12 * DAY, "lending market deployed", async () => {
    // Euler-style isolated market: a kUSD escrow vault (collateral only) and a USDC vault
    // that lends against it. Governed by the market's curator, not by the operator.
    await h.deploy("lendingEscrowKUSD", "EVKVault", k.lendingGovernor, [
      h.addr("kUSD"),
      "EVK Escrow kUSD",
      "ekUSD-1",
      k.lendingGovernor.address,
      0n,
    ]);
    await h.deploy("lendingUSDC", "EVKVault", k.lendingGovernor, [
      h.addr("usdc"),
      "EVK Vault eUSDC-1",
      "eUSDC-1",
      k.lendingGovernor.address,
      600n,
    ]);
    await h.send(k.lendingGovernor, "lendingUSDC", "setCollateral", [h.addr("lendingEscrowKUSD"), 8500]);
    await h.send(k.lendingGovernor, "lendingEscrowKUSD", "setController", [h.addr("lendingUSDC")]);
  });
  h.schedule(DATES.lendingMarket, "operator supplies the lending market", async () => {
    await h.send(k.operator, "usdc", "approve", [h.addr("lendingUSDC"), maxUint256]);
    await h.send(k.operator, "kUSD", "approve", [h.addr("lendingEscrowKUSD"), maxUint256]);
    await h.send(k.circle, "usdc", "mint", [k.operator.address, usdc(30_000)]);
    await h.send(k.operator, "lendingUSDC", "deposit", [usdc(30_000), k.operator.address]);
    await h.send(k.operator, "lendingEscrowKUSD", "deposit", [kusd(20_000), k.operator.address]);
    await h.mintFor(k.borrower, usdc(15_000));
    await h.send(k.borrower, "kUSD", "approve", [h.addr("lendingEscrowKUSD"), maxUint256]);
    await h.send(k.borrower, "lendingEscrowKUSD", "deposit", [kusd(14_985), k.borrower.address]);
    await h.send(k.borrower, "lendingUSDC", "borrow", [usdc(9_000), k.borrower.address]);
  });
};
