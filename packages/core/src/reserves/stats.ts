/**
 * GET /api/stats (spec 4): the PSM USDC reserves and kUSD supply figures, without any ratio.
 * A backing ratio is psmUSDC / kusdOutstanding, never / kusdSupply; consumers compute it.
 */
import type { Hex } from "viem";
import { z } from "zod";
import type { PsmKey } from "../network/types.js";
import { basePins, type Pins, PinsSchema } from "../reports/pins.js";
import { isoTimeSchema, verifyViaSchema, weiSchema } from "../schema-primitives.js";
import { outstandingKusd } from "./solvency-formulas.js";
import { isoTime, toUnits } from "./units.js";

export const StatsSchema = z.strictObject({
  blockNumber: z.number().int(),
  timestamp: isoTimeSchema,
  psmUSDCLegacy: z.number().describe("USDC held by the legacy redeem PSM (v1)"),
  psmUSDCMint: z.number().describe("USDC held by the live mint PSM"),
  psmUSDCPrevMint: z.number().describe("USDC held by the prior mint PSM (v3, redeem-only)"),
  psmUSDC: z.number().describe("USDC held by the three PSMs together"),
  psmReservesUSD: z.number().describe("psmUSDC valued at 1 USD per USDC"),
  kusdOutstanding: z.number().describe("kUSD totalSupply minus the kUSD the PSMs hold"),
  kusdOutstandingWei: weiSchema,
  kusdSupply: z.number().describe("kUSD totalSupply"),
  kusdSupplyWei: weiSchema,
  note: z.string(),
  verifyVia: verifyViaSchema,
  pins: PinsSchema,
});
export type Stats = z.infer<typeof StatsSchema>;

export type StatsInputs = {
  blockNumber: bigint;
  blockTimestamp: number;
  psmUsdc: Record<PsmKey, bigint>;
  psmKusd: bigint[];
  kusdSupply: bigint;
  verifyVia: string[];
  /** The network document the reads were made with (pins.network). */
  network: Pins["network"];
  /** The hash of the block every read is pinned to; null when it could not be read (no block is pinned). */
  blockHash: Hex | null;
};

/** The published figures from raw reads. */
export function buildStats(i: StatsInputs): Stats {
  const psmUSDCRaw = i.psmUsdc.psmRedeemReserve + i.psmUsdc.psmMint + i.psmUsdc.psmRetiredMint;
  const outstanding = outstandingKusd(i.kusdSupply, i.psmKusd);
  return {
    blockNumber: Number(i.blockNumber),
    timestamp: isoTime(i.blockTimestamp),
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
    note: "No ratio is published here. A backing ratio is psmUSDC / kusdOutstanding (never / kusdSupply: redeemed kUSD sits in the PSMs). /api/por at the same block carries the same figures.",
    verifyVia: i.verifyVia,
    pins: basePins({
      report: "stats",
      network: i.network,
      block: i.blockHash ? { number: Number(i.blockNumber), hash: i.blockHash, timestamp: i.blockTimestamp } : null,
    }),
  };
}
