/**
 * The three PSMs, one block each, and reserves.psm: their combined USDC (the 1:1 backing of
 * rule 2) and combined kUSD inventory (subtracted from supply for outstanding, rule 1).
 */
import { z } from "zod";
import type { PsmKey } from "../../network/types.js";
import { addressSchema, verifyViaSchema, weiSchema } from "../../schema-primitives.js";
import { orNull, toUnits } from "../units.js";
import { type MinterRole, MinterRoleSchema } from "./deposit-vaults.js";
import { Amount } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import { type ChainSnapshot, type PsmSnapshot, psmRole } from "./snapshot.js";
import { cmd, cmds, eth, usdc, v } from "./values.js";

export const PsmTotalsSchema = z.strictObject({
  address: addressSchema.describe("the legacy redeem PSM"),
  addressPrevMint: addressSchema.describe("the prior mint PSM (redeem-only since its MINTER_ROLE was revoked)"),
  addressMint: addressSchema.describe("the live mint PSM"),
  usdcHeld: Amount.describe("combined USDC of the three PSMs"),
  kusdHeld: Amount.describe("combined kUSD the three PSMs hold (not outstanding)"),
  kusdHeldWei: weiSchema.nullable(),
});
export type PsmTotals = z.infer<typeof PsmTotalsSchema>;

export function buildPsmTotals(s: ChainSnapshot, f: PorFigures): PsmTotals {
  return {
    address: s.psms.psmRedeemReserve.address,
    addressPrevMint: s.psms.psmRetiredMint.address,
    addressMint: s.psms.psmMint.address,
    usdcHeld: f.psmUsdcTotal,
    kusdHeld: orNull(f.psmKusdTotalRaw, (x) => toUnits(x, 18)),
    kusdHeldWei: orNull(f.psmKusdTotalRaw, String),
  };
}

const psmFields = {
  address: addressSchema,
  role: z.string().describe("mint or redeem-only, from hasRole(MINTER_ROLE) at this block"),
  usdcHeld: Amount,
  kusdHeld: Amount,
  paused: z.boolean().nullable(),
};
export const PsmBlockSchema = z.strictObject({ ...psmFields, verifyVia: verifyViaSchema });
export type PsmBlock = z.infer<typeof PsmBlockSchema>;
/** Only the live mint PSM carries minterRole: the same object as reserves.vaultV2.minterRole. */
export const PsmMintBlockSchema = z.strictObject({
  ...psmFields,
  minterRole: MinterRoleSchema,
  verifyVia: verifyViaSchema,
});
export type PsmMintBlock = z.infer<typeof PsmMintBlockSchema>;

const fields = (p: PsmSnapshot, k: PsmKey) => ({
  address: p.address,
  role: psmRole(k, v(p.holdsMinterRole)),
  usdcHeld: usdc(p.usdc),
  kusdHeld: eth(p.kusd),
  paused: v(p.paused),
});
const verifyVia = (p: PsmSnapshot, k: PsmKey) => cmds(cmd(p.usdc, `${k}.usdcHeld`), cmd(p.kusd, `${k}.kusdHeld`));

export function buildPsmBlock(p: PsmSnapshot, k: Exclude<PsmKey, "psmMint">): PsmBlock {
  return { ...fields(p, k), verifyVia: verifyVia(p, k) };
}

export function buildPsmMintBlock(p: PsmSnapshot, minterRole: MinterRole): PsmMintBlock {
  return { ...fields(p, "psmMint"), minterRole, verifyVia: verifyVia(p, "psmMint") };
}
