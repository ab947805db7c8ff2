/**
 * GET /api/stats (spec 4): the PSM USDC reserves and kUSD supply figures, without any ratio.
 * A backing ratio is psmUSDC / kusdOutstanding, never / kusdSupply; consumers compute it.
 */
import { PinnedReader, type ReadSpec } from "../chain/pinned-reader.js";
import type { ReportBlock, ReportContext } from "../reports/context.js";
import { PSM_KEYS } from "./chain-snapshot.js";
import { outstandingKusd } from "../../core/reserves/solvency.js";
import { isoTime, toUnits } from "../../core/reserves/units.js";

export type StatsInputs = { psmUsdc: Record<(typeof PSM_KEYS)[number], bigint>; psmKusd: bigint[]; kusdSupply: bigint };

/** Pure: the published figures from raw reads. */
export function computeStats(i: StatsInputs) {
  const psmUSDCRaw = i.psmUsdc.psmRedeemReserve + i.psmUsdc.psmMint + i.psmUsdc.psmRetiredMint;
  const outstanding = outstandingKusd(i.kusdSupply, i.psmKusd);
  return {
    psmUSDCLegacy: toUnits(i.psmUsdc.psmRedeemReserve, 6),
    psmUSDCMint: toUnits(i.psmUsdc.psmMint, 6),
    psmUSDCPrevMint: toUnits(i.psmUsdc.psmRetiredMint, 6),
    psmUSDC: toUnits(psmUSDCRaw, 6),
    // USDC is valued at 1 USD (the PSMs redeem 1 kUSD for 1 USDC less fees).
    psmReservesUSD: toUnits(psmUSDCRaw, 6),
    kusdOutstanding: toUnits(outstanding, 18),
    kusdOutstandingWei: outstanding.toString(),
    kusdSupply: toUnits(i.kusdSupply, 18),
    kusdSupplyWei: i.kusdSupply.toString(),
  };
}

export async function loadStats(ctx: ReportContext, at: ReportBlock) {
  const n = ctx.network;
  const r = new PinnedReader(ctx.base, at.blockNumber, n.reporting.publicRpc.base);
  const bal = (token: `0x${string}`, holder: `0x${string}`): ReadSpec => ({ to: token, signature: "balanceOf(address)(uint256)", args: [holder] });
  const usdcSpecs = PSM_KEYS.map((k) => bal(n.usdc.address, n.psms[k].address));
  const kusdSpecs = PSM_KEYS.map((k) => bal(n.kUSD.address, n.psms[k].address));
  const supplySpec: ReadSpec = { to: n.kUSD.address, signature: "totalSupply()(uint256)" };
  const [usdc, kusd, supply, block] = await Promise.all([
    Promise.all(usdcSpecs.map((s) => r.call<bigint>(s))),
    Promise.all(kusdSpecs.map((s) => r.call<bigint>(s))),
    r.call<bigint>(supplySpec),
    ctx.base.getBlock({ blockNumber: at.blockNumber }),
  ]);
  const psmUsdc = Object.fromEntries(PSM_KEYS.map((k, i) => [k, usdc[i]!])) as StatsInputs["psmUsdc"];
  return {
    blockNumber: Number(at.blockNumber),
    timestamp: isoTime(Number(block.timestamp)),
    ...computeStats({ psmUsdc, psmKusd: kusd, kusdSupply: supply }),
    note: "No ratio is published here. A backing ratio is psmUSDC / kusdOutstanding (never / kusdSupply: redeemed kUSD sits in the PSMs). /api/por at the same block carries the same figures.",
    verifyVia: [
      ...PSM_KEYS.map((k, i) => r.command(usdcSpecs[i]!, `USDC of ${k}`, usdc[i]!, 6)),
      ...PSM_KEYS.map((k, i) => r.command(kusdSpecs[i]!, `kUSD held by ${k}`, kusd[i]!, 18)),
      r.command(supplySpec, "kusdSupplyWei", supply, 18),
    ],
  };
}
