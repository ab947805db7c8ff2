/**
 * GET /api/por (spec 2.3): the unsigned reserves report, composed from its sections. Pure:
 * every input (the block-pinned chain snapshot, the venue read, the indexed history) is passed
 * in. PorReportSchema is the response's contract: strict objects, so a field gained or lost
 * by the assembler fails validation instead of drifting from the published document.
 */
import type { Address, Hex } from "viem";
import { z } from "zod";
import type { RegistryVersionConfig } from "../../network/registry-config.js";
import { basePins, type Pins, PinsSchema, type VenueRequestPin } from "../../reports/pins.js";
import { hash32Schema, isoTimeSchema } from "../../schema-primitives.js";
import { isoTime } from "../units.js";
import { AttestationSchema, buildAttestation } from "./attestation.js";
import { buildMinterRole, buildVaultV1, buildVaultV2, VaultV1Schema, VaultV2Schema } from "./deposit-vaults.js";
import { buildHolder, buildMultisig, HolderSchema, MultisigSchema } from "./holders.js";
import { buildLiabilities, LiabilitiesSchema } from "./liabilities.js";
import { buildMarket, MarketSchema } from "./market.js";
import { computePorFigures, type ListedAccount, type PorFigures } from "./por-figures.js";
import type { PrecedentInputs } from "./precedent.js";
import { buildProtocolOwnedReserves, ProtocolOwnedReservesSchema } from "./protocol-owned.js";
import {
  buildPsmBlock,
  buildPsmMintBlock,
  buildPsmTotals,
  PsmBlockSchema,
  PsmMintBlockSchema,
  PsmTotalsSchema,
} from "./psms.js";
import { buildRedemptionDepth, RedemptionDepthSchema } from "./redemption-depth.js";
import type { ChainSnapshot, VenueRead } from "./snapshot.js";
import { buildSolvency, SolvencySchema } from "./solvency.js";
import {
  buildStakedVault,
  buildStakedVaultDeprecated,
  StakedVaultDeprecatedSchema,
  StakedVaultSchema,
} from "./staking-vaults.js";

export type PorInputs = {
  chainId: number;
  /** SHA-256 of the network document the report is built with (pins.network). */
  documentSha256: Hex;
  snapshot: ChainSnapshot;
  /** The hash of the snapshot's block; null when it could not be read. */
  blockHash: Hex | null;
  venue: VenueRead;
  precedent: Omit<PrecedentInputs, "psms">;
  registry: readonly RegistryVersionConfig[];
  addresses: { kUSD: Address; usdc: Address; weth: Address; ethUsdFeed: Address | null };
  /** Accounts of the operator's registry (kind eoa = founder wallets). */
  listed: ListedAccount[];
  rpcChainLength: number | null;
  canonicalEndpoint: string;
  commandRpcUrl: string;
  indexedHead: { blockNumber: bigint; timestamp: number };
  atHead: boolean;
};

export const ReservesSchema = z.strictObject({
  vault: VaultV1Schema,
  vaultV2: VaultV2Schema,
  stakedVault: StakedVaultSchema,
  stakedVaultDeprecated: StakedVaultDeprecatedSchema,
  insuranceFund: HolderSchema,
  treasury: HolderSchema,
  multisig: MultisigSchema,
  psm: PsmTotalsSchema,
  psmRedeemReserve: PsmBlockSchema,
  psmRetiredMint: PsmBlockSchema,
  psmMint: PsmMintBlockSchema,
  protocolOwnedReserves: ProtocolOwnedReservesSchema,
});

export const PorReportSchema = z
  .strictObject({
    protocol: z.literal("kUSD"),
    chain: z.literal("base"),
    chainId: z.int(),
    blockNumber: z.int().describe("every chain figure is a read pinned to this block"),
    blockHash: hash32Schema
      .nullable()
      .describe(
        "that block's hash: a reproduction on another node, or after a reorg, can tell it reads the same block; null when it could not be read",
      ),
    timestamp: isoTimeSchema.describe("the block's timestamp"),
    atHead: z
      .boolean()
      .describe(
        "false for a report at a past block (?block=N): the venue mirror is then reconciled against the recorded reading nearest at or before it (reserves.vault.composition.l1Assets.venueRead)",
      ),
    reserves: ReservesSchema,
    liabilities: LiabilitiesSchema,
    solvency: SolvencySchema,
    redemptionDepth: RedemptionDepthSchema,
    market: MarketSchema,
    methodology: z.string(),
    attestation: AttestationSchema,
    pins: PinsSchema,
  })
  .meta({ description: "The unsigned reserves, liabilities, solvency and redemption-depth report (spec 2.3)." });
export type PorReport = z.infer<typeof PorReportSchema>;
export type Reserves = z.infer<typeof ReservesSchema>;

const METHODOLOGY =
  "Every figure is a read at blockNumber (pinned; reproduce it with the verifyVia command beside it) or a fold of the indexed event history up to that block. Outstanding kUSD = totalSupply − kUSD held by the three PSMs. psmSolvencyRatio = combined PSM USDC / outstanding. collateralUSD = vault v1 tvlUSD + insurance fund USD + combined PSM USDC; vault v1 counts only in the aggregate. The venue mirror (l1Assets) counts at min(mirror, venue equity): read live at the head, at a past block the reading a signed statement recorded nearest at or before it. Protocol-owned reserves are a disclosure view, never added to any ratio. A read that fails is null, never guessed.";

function buildReserves(i: PorInputs, f: PorFigures): Reserves {
  const s = i.snapshot;
  // One object under both keys (minterRole rule 3), not two equal copies.
  const minterRole = buildMinterRole(s);
  return {
    vault: buildVaultV1(s, f, i.venue, i.addresses.weth),
    vaultV2: buildVaultV2(s.vaultV2, minterRole, i.addresses.weth, f.price),
    stakedVault: buildStakedVault(s.skUSD, f, i.addresses.kUSD),
    stakedVaultDeprecated: buildStakedVaultDeprecated(s.skUSDDeprecated, i.addresses.kUSD),
    insuranceFund: buildHolder(s.insuranceFund, "insuranceFund", f.holdersUsd.insuranceFund),
    treasury: buildHolder(s.treasury, "treasury", f.holdersUsd.treasury),
    multisig: buildMultisig(s.multisig, f.holdersUsd.multisig),
    psm: buildPsmTotals(s, f),
    psmRedeemReserve: buildPsmBlock(s.psms.psmRedeemReserve, "psmRedeemReserve"),
    psmRetiredMint: buildPsmBlock(s.psms.psmRetiredMint, "psmRetiredMint"),
    psmMint: buildPsmMintBlock(s.psms.psmMint, minterRole),
    protocolOwnedReserves: buildProtocolOwnedReserves(s, f),
  };
}

/** The venue answer the report used, as its pins publish it (none: no request counts). */
function venueRequests(v: VenueRead): VenueRequestPin[] {
  if (!v.state || v.receivedAtMs === null) return [];
  return [
    {
      request: { type: "clearinghouseState", user: v.account },
      history: false,
      pages: 1,
      records: null,
      venueTimeMs: v.state.time ?? null,
      receivedAtMs: v.receivedAtMs,
      answer: { equityUsd: v.state.equityUsd },
    },
  ];
}

function porPins(i: PorInputs, f: PorFigures): Pins {
  return basePins({
    report: "por",
    network: { chainId: i.chainId, documentSha256: i.documentSha256 },
    block: i.blockHash ? { number: f.block, hash: i.blockHash, timestamp: i.snapshot.blockTimestamp } : null,
    venue: {
      url: i.venue.url,
      account: i.venue.account,
      requests: venueRequests(i.venue),
      failed: i.venue.source === "none" ? i.venue.reason : null,
    },
  });
}

export function buildPorReport(i: PorInputs): PorReport {
  const s = i.snapshot;
  const f = computePorFigures(s, i.venue.state?.equityUsd ?? null, i.listed);
  return {
    protocol: "kUSD",
    chain: "base",
    chainId: i.chainId,
    blockNumber: f.block,
    blockHash: i.blockHash,
    timestamp: isoTime(s.blockTimestamp),
    atHead: i.atHead,
    reserves: buildReserves(i, f),
    liabilities: buildLiabilities(s, f, i.addresses.kUSD),
    solvency: buildSolvency(f),
    redemptionDepth: buildRedemptionDepth(s, f, i.precedent),
    market: buildMarket(s, f.price),
    methodology: METHODOLOGY,
    attestation: buildAttestation({ ...i, block: f.block, failedReads: s.failedReads, notDeployed: s.notDeployed }),
    pins: porPins(i, f),
  };
}
