/**
 * GET /api/por/redemption-plan: the transactions that redeem `amount` kUSD at a block. The
 * routing is core's (redemption-routing.ts); this edge reads the PSMs and has the chain confirm
 * each leg's fee with the PSM's own getFee, so a fee rule we misread shows up as a refusal, not
 * as a wrong quote.
 */

import type { PsmKey, RedemptionPlanReport } from "@kusd/core";
import { PSM_KEYS, planRedemption, toUnits } from "@kusd/core";
import { parseUnits } from "viem";
import { PinnedReader } from "../../packages/verify/src/index.js";
import type { ReportBlock, ReportContext } from "../context.js";
import { ApiError } from "../http/errors.js";
import { readPsms } from "./por-service.js";

/** `amount`: a positive kUSD decimal string, as the route validated it. */
export async function loadRedemptionPlan(
  ctx: ReportContext,
  at: ReportBlock,
  amount: string,
): Promise<RedemptionPlanReport> {
  const kusd = parseUnits(amount, 18);
  const psms = await readPsms(ctx, at.blockNumber);
  const unread = PSM_KEYS.filter((k) => !psms[k].usdc || !psms[k].paused || !psms[k].fees);
  // A PSM that had no code yet at this block redeemed nothing then: it is left out of the plan.
  // Any other failed read is ours (503): no plan rather than a wrong one.
  const notYetDeployed = new Set(
    await Promise.all(
      unread.map(async (k) => ((await hasCode(ctx, psms[k].address, at.blockNumber)) === false ? k : null)),
    ),
  );
  if (unread.some((k) => !notYetDeployed.has(k))) {
    throw new ApiError(
      "chain_read_failed",
      "PSM reserves or fee schedules could not be read; no plan rather than a wrong one",
    );
  }
  const plan = planRedemption(
    kusd,
    PSM_KEYS.filter((k) => !notYetDeployed.has(k)).map((k) => ({
      key: k,
      address: psms[k].address,
      reserveUsdc: psms[k].usdc!.value,
      canServeRedemptions: psms[k].paused!.value === false,
      fees: psms[k].fees!,
    })),
  );
  const usdc = ctx.network.usdc.address;
  const reader = new PinnedReader(ctx.base, at.blockNumber, ctx.network.reporting.publicRpc.base);
  const versionOf = (key: string) => psms[key as PsmKey].fees!.version;
  const checks = await Promise.all(
    plan.legs.map(async (l) => {
      const spec = { to: l.address, signature: "getFee(address,uint256)(uint256)", args: [usdc, l.tierSize] };
      const onChain = await reader.call<bigint>(spec).catch(() => null);
      // v1 quotes the redemption itself; v3 and live quote the same tier on the size in USDC units.
      const expected = versionOf(l.key) === "v1" ? l.feeKusd : (l.tierSize * BigInt(l.feeBps)) / 10_000n;
      return { onChain, expected, spec };
    }),
  );
  if (checks.some((x) => x.onChain === null))
    throw new ApiError("chain_read_failed", "a PSM's getFee could not be read at this block");
  const mismatch = checks.findIndex((x) => x.onChain !== x.expected);
  if (mismatch >= 0) {
    throw new ApiError(
      "fee_rule_mismatch",
      "a PSM's getFee disagrees with the fee rule this service applies; no plan rather than a wrong one",
      {
        psm: plan.legs[mismatch]!.address,
        onChain: checks[mismatch]!.onChain!.toString(),
        expected: checks[mismatch]!.expected.toString(),
      },
    );
  }
  return {
    blockNumber: Number(at.blockNumber),
    amountKUSD: amount,
    fullyRoutable: plan.shortfallKusd === 0n,
    shortfallKUSD: toUnits(plan.shortfallKusd, 18),
    sequentialTransactions: plan.sequentialTransactions,
    transactions: plan.legs.map((l, i) => ({
      step: i + 1,
      psm: l.key as PsmKey,
      psmVersion: versionOf(l.key),
      to: l.address,
      call: `swapKUSDForStable(${usdc}, ${l.kusdIn})`,
      kusdIn: toUnits(l.kusdIn, 18),
      kusdInWei: l.kusdIn.toString(),
      feeBps: l.feeBps,
      feeKUSD: toUnits(l.feeKusd, 18),
      usdcOut: toUnits(l.usdcOut, 6),
      verifyFee: reader.command(
        checks[i]!.spec,
        versionOf(l.key) === "v1"
          ? `transactions[${i}].feeKUSD in wei (PSM v1 tiers the raw kUSD amount)`
          : `the ${l.feeBps} bps tier's fee on the leg's size in USDC units (${l.tierSize}); feeKUSD = kusdInWei × ${l.feeBps} / 10000`,
        checks[i]!.onChain!,
      ),
      cast: `cast send ${l.address} 'swapKUSDForStable(address,uint256)' ${usdc} ${l.kusdIn} --rpc-url ${ctx.network.reporting.publicRpc.base}  # after approving kUSD to this PSM`,
    })),
    routing:
      "smallest reserve that fully covers the amount; otherwise split across PSMs deepest first, one transaction each; each leg's fee by its PSM's deployed rule (first tier whose lower bound the size reaches, else the flat fee; PSM v1 compares the raw kUSD amount), confirmed with getFee at this block",
  };
}

/** Whether `address` had code at `block`; null when the chain could not say. */
async function hasCode(ctx: ReportContext, address: `0x${string}`, block: bigint): Promise<boolean | null> {
  try {
    const code = await ctx.base.getCode({ address, blockNumber: block });
    return code !== undefined && code !== "0x";
  } catch {
    return null;
  }
}
