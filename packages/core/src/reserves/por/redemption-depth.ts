/**
 * redemptionDepth (spec 2.3 rules 1–8): how much USDC a redemption can reach at the report's
 * block, per PSM and in total, and the precedent of the redemptions that actually happened.
 */
import { z } from "zod";
import { addressSchema, pctTextSchema } from "../../schema-primitives.js";
import { redemptionDepth } from "../redemption-routing.js";
import { pct } from "../solvency-formulas.js";
import { orNull, toUnits } from "../units.js";
import { Amount } from "./json-types.js";
import type { PorFigures } from "./por-figures.js";
import { buildPrecedent, type PrecedentInputs, PrecedentSchema } from "./precedent.js";
import { type ChainSnapshot, PSM_KEYS, PSM_LABELS } from "./snapshot.js";
import { usdc, v } from "./values.js";

export const ByContractSchema = z.strictObject({
  key: z.enum(["psmMint", "psmRetiredMint", "psmRedeemReserve"]),
  label: z.string(),
  address: addressSchema,
  reserveUSDC: Amount,
  pctOfOutstanding: pctTextSchema.nullable(),
  redeemOnly: z.boolean().nullable().describe("MINTER_ROLE revoked: minting disabled, redemption not"),
  canServeRedemptions: z.boolean().describe("not paused and holding USDC"),
});
export type ByContract = z.infer<typeof ByContractSchema>;

export const RedemptionDepthSchema = z.strictObject({
  instantSingleTransactionUSDC: z.number().describe("the deepest single PSM reserve, never the sum"),
  instantSingleTransactionPctOfOutstanding: pctTextSchema.nullable(),
  deepestLegAddress: addressSchema.nullable(),
  totalReachableUSDC: z.number().describe("the reserves of every PSM that can serve redemptions, summed"),
  totalReachablePctOfOutstanding: pctTextSchema.nullable(),
  totalReachableRequiresSequentialTransactions: z.boolean(),
  outstandingKUSD: Amount,
  precedent: PrecedentSchema,
  byContract: z.array(ByContractSchema),
  routing: z.string(),
  topUpMechanism: z.string(),
  disclosure: z.string(),
});
export type RedemptionDepth = z.infer<typeof RedemptionDepthSchema>;

/** A PSM serves redemptions when it is readably unpaused and holds USDC. */
const reservesOf = (s: ChainSnapshot) =>
  PSM_KEYS.map((k) => ({
    key: k,
    address: s.psms[k].address,
    reserveUsdc: v(s.psms[k].usdc) ?? 0n,
    canServeRedemptions: v(s.psms[k].paused) === false && (v(s.psms[k].usdc) ?? 0n) > 0n,
  }));

export function buildRedemptionDepth(
  s: ChainSnapshot,
  f: PorFigures,
  precedent: Omit<PrecedentInputs, "psms">,
): RedemptionDepth {
  const reserves = reservesOf(s);
  const depth = redemptionDepth(reserves);
  const pctOf = (raw: bigint) => (f.outstanding ? pct(toUnits(raw, 6) / f.outstanding) : null);
  return {
    instantSingleTransactionUSDC: toUnits(depth.instantSingleTransactionUsdc, 6),
    instantSingleTransactionPctOfOutstanding: pctOf(depth.instantSingleTransactionUsdc),
    deepestLegAddress: depth.deepestLegAddress,
    totalReachableUSDC: toUnits(depth.totalReachableUsdc, 6),
    totalReachablePctOfOutstanding: pctOf(depth.totalReachableUsdc),
    totalReachableRequiresSequentialTransactions: depth.totalReachableRequiresSequentialTransactions,
    outstandingKUSD: f.outstanding,
    precedent: buildPrecedent({
      ...precedent,
      psms: PSM_KEYS.map((k) => ({ key: k, address: s.psms[k].address, label: PSM_LABELS[k].label })),
    }),
    byContract: PSM_KEYS.map((k) => ({
      key: k,
      label: PSM_LABELS[k].label,
      address: s.psms[k].address,
      reserveUSDC: usdc(s.psms[k].usdc),
      pctOfOutstanding: orNull(v(s.psms[k].usdc), pctOf),
      redeemOnly: orNull(v(s.psms[k].holdsMinterRole), (h) => !h),
      canServeRedemptions: reserves.find((r) => r.key === k)!.canServeRedemptions,
    })),
    routing:
      "A redemption is one transaction against one PSM, paid only from that PSM's USDC. An amount routes to the smallest reserve that fully covers it; a larger amount splits across PSMs, deepest first, one transaction each. No external market route is offered. Plan an amount at /api/por/redemption-plan?amount=<kUSD>.",
    topUpMechanism:
      "The multisig may top up a PSM by a direct USDC transfer; mints deposit USDC into the live mint PSM only. USDC leaves a PSM by redemption, by a fee skim bounded by skimmableSurplus, or by an ERC-3156 flash loan repaid in the same transaction. There is no admin withdrawal.",
    disclosure:
      "A revoked MINTER_ROLE disables minting on a PSM, not redemption. Capacity figures are reserves at the report's block, not a promise of future liquidity.",
  };
}
