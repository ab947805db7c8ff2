/**
 * GET /api/psm-status: can a PSM mint kUSD for USDC right now, and how much more will it take.
 * Pure: the edge reads each gate at one block (null when the read failed) and hands them here.
 *
 * Headroom is what the deployed code binds the cap on: the v3 and live PSMs check
 * `max(currentExposure, USDC.balanceOf(psm)) + amount ≤ stableCaps` (the operator's 2026-06-07
 * fix: a redemption larger than the counter floors it to zero while the USDC is still held); the
 * v1 PSM checks `currentExposure + amount ≤ stableCaps`.
 */
import type { Address, Hex } from "viem";
import { z } from "zod";
import type { PsmKey, PsmVersion } from "../network/types.js";
import { basePins, type Pins, PinsSchema } from "../reports/pins.js";
import { toUnits } from "../reserves/units.js";
import { addressSchema, isoTimeSchema, type NotDeployedRead, notDeployedSchema } from "../schema-primitives.js";

export type MintGates = {
  mintingEnabled: boolean | null;
  paused: boolean | null;
  supportedStables: boolean | null;
  stableCaps: bigint | null;
  currentExposure: bigint | null;
  usdcBalance: bigint | null;
  psmHasMinterRole: boolean | null;
};

/** Which amount the version's cap check adds to. */
export const CAP_BASIS: Record<PsmVersion, "max(currentExposure, balanceOf)" | "currentExposure"> = {
  v1: "currentExposure",
  v3: "max(currentExposure, balanceOf)",
  live: "max(currentExposure, balanceOf)",
};

/** USDC (6 decimals) the PSM will still take before StableCapExceeded; null when a read it needs failed. */
export function mintHeadroom(
  version: PsmVersion,
  g: Pick<MintGates, "stableCaps" | "currentExposure" | "usdcBalance">,
): bigint | null {
  if (g.stableCaps === null || g.currentExposure === null) return null;
  let used = g.currentExposure;
  if (CAP_BASIS[version] !== "currentExposure") {
    if (g.usdcBalance === null) return null;
    if (g.usdcBalance > used) used = g.usdcBalance;
  }
  return g.stableCaps > used ? g.stableCaps - used : 0n;
}

/**
 * Ready to mint: minting on, not paused, USDC supported, MINTER_ROLE held and room under the cap.
 * Three-valued: one gate known to be shut makes it false; otherwise one unknown makes it null.
 */
export function mintReadiness(
  version: PsmVersion,
  g: MintGates,
): { ready: boolean | null; blocking: string[]; unknown: string[] } {
  const headroom = mintHeadroom(version, g);
  const open: Record<string, boolean | null> = {
    mintingEnabled: g.mintingEnabled,
    notPaused: g.paused === null ? null : !g.paused,
    supportedStables: g.supportedStables,
    psmHasMinterRole: g.psmHasMinterRole,
    headroom: headroom === null ? null : headroom > 0n,
  };
  const blocking = Object.entries(open)
    .filter(([, v]) => v === false)
    .map(([k]) => k);
  const unknown = Object.entries(open)
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  return { ready: blocking.length > 0 ? false : unknown.length > 0 ? null : true, blocking, unknown };
}

const Gates = z.strictObject({
  mintingEnabled: z.boolean().nullable().describe("mintingEnabled()"),
  paused: z.boolean().nullable().describe("paused()"),
  supportedStables: z.boolean().nullable().describe("supportedStables(USDC)"),
  stableCaps: z.number().nullable().describe("stableCaps(USDC), in USDC"),
  currentExposure: z.number().nullable().describe("currentExposure(USDC), in USDC"),
  usdcBalance: z.number().nullable().describe("USDC.balanceOf(psm), in USDC"),
  psmHasMinterRole: z.boolean().nullable().describe("kUSD hasRole(MINTER_ROLE, psm)"),
  headroomUSDC: z
    .number()
    .nullable()
    .describe(
      "stableCaps − the amount the cap check adds to (capBasis); 0 at the cap; null when a read it needs failed",
    ),
});

export const PsmStatusEntrySchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  version: z.enum(["v1", "v3", "live"]),
  address: addressSchema,
  ready: z
    .boolean()
    .nullable()
    .describe(
      "true: every gate is open; false: one is shut (see blocking); null: none is shut but one could not be read",
    ),
  blocking: z.array(z.string()),
  unknown: z.array(z.string()),
  capBasis: z.string().describe("what the deployed cap check adds the amount to"),
  gates: Gates,
  verifyVia: z.record(z.string(), z.string()).describe("the cast call behind each gate, pinned to blockNumber"),
});
export type PsmStatusEntry = z.infer<typeof PsmStatusEntrySchema>;

export const PsmStatusSchema = z.strictObject({
  blockNumber: z.number().int(),
  timestamp: isoTimeSchema,
  psm: addressSchema.describe("the live mint PSM, whose gates the top-level ready and gates repeat"),
  ready: z.boolean().nullable(),
  gates: Gates,
  psms: z.array(PsmStatusEntrySchema).describe("all three PSMs, the live mint PSM first"),
  failedReads: z.array(z.string()),
  notDeployed: notDeployedSchema,
  note: z.string(),
  pins: PinsSchema,
});
export type PsmStatus = z.infer<typeof PsmStatusSchema>;

export type PsmStatusInput = {
  key: PsmKey;
  label: string;
  version: PsmVersion;
  address: Address;
  gates: MintGates;
  commands: Record<string, string>;
};

const usdc = (raw: bigint | null) => (raw === null ? null : toUnits(raw, 6));

export function psmStatusEntry(i: PsmStatusInput): PsmStatusEntry {
  const { ready, blocking, unknown } = mintReadiness(i.version, i.gates);
  const g = i.gates;
  return {
    key: i.key,
    label: i.label,
    version: i.version,
    address: i.address,
    ready,
    blocking,
    unknown,
    capBasis: CAP_BASIS[i.version],
    gates: {
      mintingEnabled: g.mintingEnabled,
      paused: g.paused,
      supportedStables: g.supportedStables,
      stableCaps: usdc(g.stableCaps),
      currentExposure: usdc(g.currentExposure),
      usdcBalance: usdc(g.usdcBalance),
      psmHasMinterRole: g.psmHasMinterRole,
      headroomUSDC: usdc(mintHeadroom(i.version, g)),
    },
    verifyVia: i.commands,
  };
}

/** The block the gates were read at, and what pins the reads (the network document, the block's hash). */
export type PsmStatusBlock = {
  blockNumber: bigint;
  timestamp: number;
  /** Null when the block's hash could not be read (no block is pinned). */
  blockHash: Hex | null;
  network: Pins["network"];
};

/** The document: every PSM, the live mint PSM first and repeated at the top level. */
export function buildPsmStatus(
  at: PsmStatusBlock,
  entries: PsmStatusEntry[],
  failedReads: string[],
  notDeployed: NotDeployedRead[] = [],
): PsmStatus {
  const ordered = [...entries].sort((a, b) => Number(b.version === "live") - Number(a.version === "live"));
  const live = ordered[0]!;
  return {
    blockNumber: Number(at.blockNumber),
    timestamp: new Date(at.timestamp * 1000).toISOString(),
    psm: live.address,
    ready: live.ready,
    gates: live.gates,
    psms: ordered,
    failedReads,
    notDeployed,
    note: "ready = mintingEnabled ∧ ¬paused ∧ supportedStables(USDC) ∧ kUSD hasRole(MINTER_ROLE, psm) ∧ headroom > 0, each read at blockNumber; a read that failed is null and makes ready null unless another gate is shut. A redemption needs none of these: only the pause off and USDC in the PSM.",
    pins: basePins({
      report: "psm-status",
      network: at.network,
      block: at.blockHash ? { number: Number(at.blockNumber), hash: at.blockHash, timestamp: at.timestamp } : null,
    }),
  };
}
