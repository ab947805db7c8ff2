/**
 * The published redemption plan (`/api/por/redemption-plan?amount=`): the transactions that
 * redeem an amount of kUSD at a block, one per PSM leg, each fee confirmed by the PSM's getFee.
 */
import { z } from "zod";
import { addressSchema, weiSchema } from "../schema-primitives.js";

export const RedemptionPlanSchema = z.strictObject({
  blockNumber: z.number().int(),
  amountKUSD: z.string().describe("the amount asked for, as given"),
  fullyRoutable: z.boolean().describe("whether the PSMs' USDC covers the whole amount"),
  shortfallKUSD: z.number().describe("what no PSM can pay at this block"),
  sequentialTransactions: z.boolean().describe("whether the plan needs more than one transaction"),
  transactions: z.array(
    z.strictObject({
      step: z.number().int().positive(),
      psm: z.enum(["psmMint", "psmRetiredMint", "psmRedeemReserve"]),
      psmVersion: z.enum(["v1", "v3", "live"]),
      to: addressSchema,
      call: z.string(),
      kusdIn: z.number(),
      kusdInWei: weiSchema,
      feeBps: z.number(),
      feeKUSD: z.number(),
      usdcOut: z.number(),
      verifyFee: z.string().describe("the PSM's own getFee at this block, which the plan's fee must equal"),
      cast: z.string().describe("the transaction to send, after approving kUSD to the PSM"),
    }),
  ),
  routing: z.string(),
});
export type RedemptionPlanReport = z.infer<typeof RedemptionPlanSchema>;
