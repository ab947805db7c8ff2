/** liabilities (spec 2.3): kUSD supply and what of it is outstanding, i.e. outside the PSMs. */
import type { Address } from "viem";
import { z } from "zod";
import { addressSchema, verifyViaSchema, weiSchema } from "../../schema-primitives.js";
import { orNull, toUnits } from "../units.js";
import { Amount } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import { type ChainSnapshot, PSM_KEYS } from "./snapshot.js";
import { cmd, cmds } from "./values.js";

export const LiabilitiesSchema = z.strictObject({
  kUSD: z.strictObject({
    address: addressSchema,
    totalSupply: Amount.describe("kUSD totalSupply()"),
    totalSupplyWei: weiSchema.nullable(),
    outstanding: Amount.describe("totalSupply minus the kUSD held by the three PSMs (rule 1): the liability"),
    outstandingWei: weiSchema.nullable(),
    peg: z.literal("USD"),
    verifyVia: verifyViaSchema,
  }),
});
export type Liabilities = z.infer<typeof LiabilitiesSchema>;

export function buildLiabilities(s: ChainSnapshot, f: PorFigures, kusd: Address): Liabilities {
  return {
    kUSD: {
      address: kusd,
      totalSupply: orNull(f.supplyRaw, (x) => toUnits(x, 18)),
      totalSupplyWei: orNull(f.supplyRaw, String),
      outstanding: f.outstanding,
      outstandingWei: orNull(f.outstandingRaw, String),
      peg: "USD",
      verifyVia: cmds(
        cmd(s.kusdTotalSupply, "liabilities.kUSD.totalSupplyWei"),
        ...PSM_KEYS.map((k) => cmd(s.psms[k].kusd, `kUSD held by ${k} (subtracted for outstanding)`)),
      ),
    },
  };
}
