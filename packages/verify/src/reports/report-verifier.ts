/**
 * One report's re-derivation, the same shape for every report the service publishes: its pins
 * read, the network checked, its inputs read again from the reader's own RPC (pinned by the block
 * hash) and venue, the service's pure assembler run, and every figure given a kind
 * (rederive/classify.ts). Each report is one file beside this one, registered in registry.ts.
 */
import { type NetworkConfig, type Pins, PinsSchema, type ReportKind } from "@kusd/core";
import type { Address, Hex, PublicClient, Transport } from "viem";
import type { z } from "zod";
import type { ProofReport } from "../proofs/read-proof.js";
import { RecordingReader } from "../proofs/recorded-reads.js";
import type { PinnedReader } from "../read-plan/pinned-reader.js";
import type { FigureRow } from "../rederive/figure-rows.js";
import { checkNetwork } from "../rederive/network-check.js";
import type { Check } from "../rederive/rederive-checks.js";
import { type PinnedBlock, pinnedBlock, pinnedClients, RederivationError } from "../rederive/rederive-statement.js";
import type { ReaderVenue } from "../rederive/venue-bracket.js";

/** What the reader brings: their RPC, the network document, their venue endpoint, their clock. */
export type ReaderSources = {
  rpc: string | Transport;
  /** The reader's Ethereum RPC, for what a report reads on Ethereum (the honesty board's peers there); null: none. */
  ethereumRpc?: string | Transport | null;
  network: NetworkConfig;
  /** The network document's name in messages (its file, or "Base (shipped)"). */
  networkName: string;
  /** The reader's venue (null: none; figures resting on it are shown as recorded, not read). */
  venue: ReaderVenue | null;
  /** Current-only venue answers are read again when the report is at most this old (seconds). */
  venueNowMaxAgeSeconds: number;
  /** The reader's clock, unix ms. */
  nowMs: number;
  /** Execute every read at the report's block over state proven against this block hash (who vouches for it in `source`). */
  proofs?: { blockHash: Hex; source: string } | null;
  /** Where the report's block reader is kept, for its reads to be proven (registry.ts). */
  readers?: RecordingReader[];
  /** Serves the reads again from what was recorded (one changed): which figures rest on a read. */
  replay?: (from: PinnedReader) => PinnedReader;
};

export type ReportRederivation = {
  report: ReportKind;
  block: PinnedBlock | null;
  rows: FigureRow[];
  /** Reads the reader's RPC failed: the figures resting on them are re-derived as unknown (null). */
  failedReads: string[];
  /** The report's own checks beside the figures (the precedent from the logs, the venue's requests re-read). */
  checks: Check[];
  /** Figures resting on chain data no proof here covers (logs, reads at other blocks): which ("all", or their paths), and what. */
  unproven?: { figures: readonly string[] | "all"; source: string };
  /** With `proofs`: the report block's reads executed over proven state. */
  proofs?: ProofReport | null;
};

export type ReportVerifier = {
  report: ReportKind;
  /** Where the service publishes it. */
  path: string;
  rederive(published: unknown, sources: ReaderSources): Promise<ReportRederivation>;
};

/** The report's pins, or why they cannot pin anything. */
export function readPins(published: unknown): Pins {
  const pins = (published as { pins?: unknown } | null)?.pins;
  const parsed = PinsSchema.safeParse(pins);
  if (!parsed.success)
    throw new RederivationError(
      "report_unreadable",
      `the report's pins do not parse (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}): nothing pins its inputs`,
    );
  return parsed.data;
}

/** `reader` reads at the report's block: its reads are the ones proven with --proofs. */
export type PinnedChain = { transport: Transport; client: PublicClient; block: PinnedBlock; reader: PinnedReader };

/**
 * The reader's chain at the report's block: the network checked first (its digest, the chain id,
 * code at the contracts, the addresses the report names), then the block by its hash.
 */
export async function openPinnedChain(
  pins: Pins,
  s: ReaderSources,
  addresses: readonly Address[] = [],
): Promise<PinnedChain> {
  if (!pins.block)
    throw new RederivationError("report_unreadable", "the report names no block: nothing pins its reads");
  const number = BigInt(pins.block.number);
  const hash = pins.block.hash.toLowerCase() as `0x${string}`;
  const { transport, client } = pinnedClients(s.rpc, number, hash);
  await checkNetwork(client, s.network, s.networkName, number, {
    documentSha256: pins.network.documentSha256,
    chainId: pins.network.chainId,
    addresses,
  });
  const block = await pinnedBlock(client, number, hash);
  const recording = new RecordingReader(client, number, s.network.reporting.publicRpc.base);
  s.readers?.push(recording);
  return { transport, client, block, reader: s.replay ? s.replay(recording) : recording };
}

/** Current-only venue answers are read again when the report is at most this old (seconds): the default of every reader. */
export const VENUE_NOW_MAX_AGE_SECONDS = 60;

/** Whether a current-only answer received at `receivedAtMs` is young enough to read again now. */
export const youngEnough = (receivedAtMs: number, s: ReaderSources) =>
  s.nowMs - receivedAtMs <= s.venueNowMaxAgeSeconds * 1000;

/** Pins are what the report was read with, never figures; every report leaves them out of its rows. */
export const isPin = (figure: string) => figure === "pins" || figure.startsWith("pins.");

/** The report as its schema reads it, or why it is not one (a report that does not parse pins nothing). */
export function parseReport<S extends z.ZodType>(schema: S, input: unknown, path: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new RederivationError(
      "report_unreadable",
      `not a ${path} report: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}
