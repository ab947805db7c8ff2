/**
 * What the report caches keep (report-caches.ts), apart from the services that build it: the
 * context builds the caches, the services read the context, so the values' types live here and
 * the caches and the context import none of the services (the dependency rule
 * `no-circular-reports` keeps it so, type imports included).
 */
import type { ApyReport, Gap, NotDeployedRead, PorReport, PsmKey, Read, Stats, Trigger } from "@kusd/core";
import type { Hex } from "viem";
import type { VenueAccountState } from "../packages/verify/src/index.js";
import type { Rendered } from "./http/rendered.js";
import type { kusdBurnedUpTo, redemptionsUpTo } from "./io/indexed-reads.js";

/** A block's hash and time as the reports use it. */
export type BlockHeader = { hash: Hex; timestamp: number };

/** The venue read now: its answer (null with the reason when it failed) and when we read it. */
export type VenueNow = { state: VenueAccountState | null; reason: string | null; readAtMs: number };

/** A block's indexed redemptions and burns. */
export type PorHistory = {
  redemptions: Awaited<ReturnType<typeof redemptionsUpTo>>;
  burned: Awaited<ReturnType<typeof kusdBurnedUpTo>>;
};

/** holdsRole of each PSM, read now through the live client, and the reads that failed. */
export type PorLiveRoles = { minterRoles: Record<PsmKey, Read<boolean> | null>; failedReads: string[] };

/** The reserves report, its bytes, and the venue read made for it now (at the head; a statement records it). */
export type RenderedPor = { report: PorReport; rendered: Rendered; venueNow: VenueNow | null };

export type RenderedStats = { stats: Stats; rendered: Rendered };

export type RenderedApy = { report: ApyReport; rendered: Rendered };

/** The on-chain part of the risk status at a block (kept per block and hash: it cannot change there). */
export type RiskChainPart = {
  onChain: Trigger[];
  gaps: Gap[];
  failedReads: string[];
  notDeployed: NotDeployedRead[];
  timestamp: number;
};
