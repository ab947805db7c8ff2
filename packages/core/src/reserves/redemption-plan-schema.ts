/**
 * The published redemption plan (`/api/por/redemption-plan?amount=`): the transactions that
 * redeem an amount of kUSD at a block, one per PSM leg, each fee confirmed by the PSM's getFee.
 * Pure: the PSMs' reserves and fee schedules and each leg's getFee, read at the block, in; the
 * plan (redemption-routing.ts) and its transactions out.
 */
import { type Address, parseUnits } from "viem";
import { z } from "zod";
import type { PsmKey } from "../network/types.js";
import { type BlockPin, basePins, type Pins, PinsSchema } from "../reports/pins.js";
import { addressSchema, weiSchema } from "../schema-primitives.js";
import type { Read } from "./por/snapshot.js";
import { expectedGetFee, type PsmReserve, planRedemption } from "./redemption-routing.js";
import { toUnits } from "./units.js";

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
  pins: PinsSchema,
});
export type RedemptionPlanReport = z.infer<typeof RedemptionPlanSchema>;

export type RedemptionPlanInputs = {
  blockNumber: bigint;
  /** The block every read is pinned to (null when its header could not be read: no block is pinned). */
  block: BlockPin | null;
  network: Pins["network"];
  /** The kUSD amount asked for: a positive decimal string with at most 18 decimals. */
  amount: string;
  usdc: Address;
  /** The RPC URL the `cast send` commands name (a public one). */
  commandRpcUrl: string;
  /** The PSMs that had code at the block, with their USDC, pause and fee schedule. */
  reserves: PsmReserve[];
  /** `getFee(USDC, leg.tierSize)` of each leg's PSM, in the order of the plan's legs. */
  getFees: NonNullable<Read<bigint>>[];
};

const ROUTING =
  "smallest reserve that fully covers the amount; otherwise split across PSMs deepest first, one transaction each; each leg's fee by its PSM's deployed rule (first tier whose lower bound the size reaches, else the flat fee; PSM v1 compares the raw kUSD amount), confirmed with getFee at this block";

/** The kUSD amount in wei, as the plan routes it. */
export const redemptionAmountWei = (amount: string) => parseUnits(amount, 18);

/** The first leg whose PSM's own getFee disagrees with the fee rule applied here; null when every fee is confirmed. */
export function feeRuleMismatch(
  i: Pick<RedemptionPlanInputs, "amount" | "reserves" | "getFees">,
): { psm: Address; onChain: bigint; expected: bigint } | null {
  const plan = planRedemption(redemptionAmountWei(i.amount), i.reserves);
  for (const [n, leg] of plan.legs.entries()) {
    const expected = expectedGetFee(leg, i.reserves.find((r) => r.key === leg.key)!.fees.version);
    const onChain = i.getFees[n]!.value;
    if (onChain !== expected) return { psm: leg.address, onChain, expected };
  }
  return null;
}

export function buildRedemptionPlanReport(i: RedemptionPlanInputs): RedemptionPlanReport {
  const plan = planRedemption(redemptionAmountWei(i.amount), i.reserves);
  const versionOf = (key: string) => i.reserves.find((r) => r.key === key)!.fees.version;
  return {
    blockNumber: Number(i.blockNumber),
    amountKUSD: i.amount,
    fullyRoutable: plan.shortfallKusd === 0n,
    shortfallKUSD: toUnits(plan.shortfallKusd, 18),
    sequentialTransactions: plan.sequentialTransactions,
    transactions: plan.legs.map((l, n) => ({
      step: n + 1,
      psm: l.key as PsmKey,
      psmVersion: versionOf(l.key),
      to: l.address,
      call: `swapKUSDForStable(${i.usdc}, ${l.kusdIn})`,
      kusdIn: toUnits(l.kusdIn, 18),
      kusdInWei: l.kusdIn.toString(),
      feeBps: l.feeBps,
      feeKUSD: toUnits(l.feeKusd, 18),
      usdcOut: toUnits(l.usdcOut, 6),
      verifyFee: i.getFees[n]!.command(
        versionOf(l.key) === "v1"
          ? `transactions[${n}].feeKUSD in wei (PSM v1 tiers the raw kUSD amount)`
          : `the ${l.feeBps} bps tier's fee on the leg's size in USDC units (${l.tierSize}); feeKUSD = kusdInWei × ${l.feeBps} / 10000`,
      ),
      cast: `cast send ${l.address} 'swapKUSDForStable(address,uint256)' ${i.usdc} ${l.kusdIn} --rpc-url ${i.commandRpcUrl}  # after approving kUSD to this PSM`,
    })),
    routing: ROUTING,
    pins: basePins({ report: "redemption-plan", network: i.network, block: i.block }),
  };
}
