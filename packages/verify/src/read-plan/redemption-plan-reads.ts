/**
 * The reads behind /api/por/redemption-plan, made the same way by the service and a reader: the
 * three PSMs at the pinned block (USDC, pause, fee schedule), the plan routed on them (core's
 * planRedemption), then each leg's fee asked of the PSM itself (`getFee`). A PSM that had no code
 * yet at the block redeemed nothing then and is left out; any other failed read throws: no plan
 * rather than a wrong one.
 */
import { PSM_KEYS, type PsmReserve, planRedemption, type RedemptionPlanInputs, redemptionAmountWei } from "@kusd/core";
import type { SnapshotAddresses } from "./addresses.js";
import { ChainReadError, type PinnedReader, tolerantReads } from "./pinned-reader.js";
import { readPsmSnapshots } from "./psm-reads.js";

export type RedemptionReads = Pick<RedemptionPlanInputs, "reserves" | "getFees">;

export async function readRedemptionPlan(
  r: PinnedReader,
  a: Pick<SnapshotAddresses, "usdc" | "kUSD" | "psms">,
  amount: string,
): Promise<RedemptionReads> {
  const psms = await readPsmSnapshots(r, a);
  const unread = PSM_KEYS.filter((k) => !psms[k].usdc || !psms[k].paused || !psms[k].fees);
  const codeAt = await Promise.all(unread.map((k) => r.hasCode(psms[k].address)));
  const notYetDeployed = new Set(unread.filter((_, i) => codeAt[i] === false));
  if (unread.some((k) => !notYetDeployed.has(k)))
    throw new ChainReadError("PSM reserves or fee schedules could not be read; no plan rather than a wrong one", {
      block: r.blockNumber,
    });
  const reserves: PsmReserve[] = PSM_KEYS.filter((k) => !notYetDeployed.has(k)).map((k) => ({
    key: k,
    address: psms[k].address,
    reserveUsdc: psms[k].usdc!.value,
    canServeRedemptions: psms[k].paused!.value === false,
    fees: psms[k].fees!,
  }));
  const { read } = tolerantReads(r);
  const plan = planRedemption(redemptionAmountWei(amount), reserves);
  const getFees = await Promise.all(
    plan.legs.map((l) =>
      read<bigint>({ to: l.address, signature: "getFee(address,uint256)(uint256)", args: [a.usdc, l.tierSize] }),
    ),
  );
  if (getFees.some((f) => f === null))
    throw new ChainReadError("a PSM's getFee could not be read at this block", { block: r.blockNumber });
  return { reserves, getFees: getFees as NonNullable<(typeof getFees)[number]>[] };
}
