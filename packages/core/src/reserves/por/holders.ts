/**
 * reserves.insuranceFund, reserves.treasury and reserves.multisig: USDC and WETH balances at
 * the report's block. Only the insurance fund counts in solvency (rule 3), and that happens in
 * the solvency section; these blocks only publish the balances.
 */
import { z } from "zod";
import { addressSchema, verifyViaSchema } from "../../schema-primitives.js";
import { round } from "../units.js";
import { Amount } from "./json-types.js";
import type { ChainSnapshot, HolderSnapshot } from "./snapshot.js";
import { cmd, cmds, eth, usdc, v } from "./values.js";

export const HolderSchema = z.strictObject({
  address: addressSchema,
  usdc: Amount,
  weth: Amount,
  totalUSD: Amount.describe("USDC + WETH at the report's ETH price"),
  verifyVia: verifyViaSchema,
});
export type Holder = z.infer<typeof HolderSchema>;

export function buildHolder(h: HolderSnapshot, key: string, usd: number | null): Holder {
  return {
    address: h.address,
    usdc: usdc(h.usdc),
    weth: eth(h.weth),
    totalUSD: round(usd),
    verifyVia: cmds(cmd(h.usdc, `${key}.usdc`), cmd(h.weth, `${key}.weth`)),
  };
}

export const MultisigSchema = HolderSchema.extend({
  threshold: z
    .string()
    .regex(/^\d+-of-\d+$/)
    .nullable()
    .describe("N-of-M from getThreshold() and getOwners(); null when either read failed"),
});
export type Multisig = z.infer<typeof MultisigSchema>;

export function buildMultisig(m: ChainSnapshot["multisig"], usd: number | null): Multisig {
  const threshold = v(m.threshold);
  const owners = v(m.owners);
  return {
    ...buildHolder(m, "multisig", usd),
    verifyVia: cmds(
      cmd(m.threshold, "multisig.threshold (N)"),
      cmd(m.owners, "multisig.threshold (M: the owners)"),
      cmd(m.usdc, "multisig.usdc"),
      cmd(m.weth, "multisig.weth"),
    ),
    threshold: threshold !== null && owners !== null ? `${threshold}-of-${owners.length}` : null,
  };
}
