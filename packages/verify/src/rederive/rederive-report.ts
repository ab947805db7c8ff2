/**
 * Every figure of an unsigned report (`/api/por`, or `/api/por?block=N`) re-derived from the
 * reader's own RPC: the chain read at the report's block (pinned by its hash) with the service's
 * read plan, the redemption precedent rebuilt from the PSMs' logs up to that block
 * (precedent-from-logs.ts), the same pure assembler, and the venue equity the report used, which
 * no one can read again. The service's own context (its URL, its RPC's head, whether the block was
 * its head) is copied, never compared; the block number and hash are checked on their own.
 */

import { type PorReport, PorReportSchema } from "@kusd/core";
import { createPublicClient, type Hex, type PublicClient } from "viem";
import { RecordingReader } from "../proofs/recorded-reads.js";
import { snapshotAddresses } from "../read-plan/addresses.js";
import { readChainSnapshot } from "../read-plan/chain-snapshot.js";
import { type FigureRow, figureRows } from "./figure-rows.js";
import { precedentFromLogs } from "./precedent-from-logs.js";
import {
  type PinnedBlock,
  PROBE_EQUITIES,
  pinnedBlock,
  pinnedClients,
  RederivationError,
  type RederiveOptions,
  type ReportBasis,
  reportFrom,
} from "./rederive-statement.js";

/** What the report states about the service, not about the chain: left out of the rows. */
const SERVICE_FIELDS = /^(blockNumber|blockHash|atHead|methodology|attestation\.)/;
/** How the service read the venue (where, when, live or a recording): shown as it read it, never re-derived. */
const VENUE_READING = /^reserves\.vault\.composition\.l1Assets\.(venueRead\.|source$|verifyVia\[)/;

export type ReportRederivation = {
  block: PinnedBlock;
  rows: FigureRow[];
  failedReads: string[];
  /** `eth_getLogs` calls the precedent took (ranges split where the RPC refused them). */
  logCalls: number;
};

/** Whether `value` looks like a report rather than a signed artifact: what the CLI dispatches on. */
export const isPorReport = (value: unknown): boolean =>
  value !== null && typeof value === "object" && "redemptionDepth" in value && "reserves" in value;

export async function rederiveReport(input: unknown, o: Omit<RederiveOptions, "proofs">): Promise<ReportRederivation> {
  const parsed = PorReportSchema.safeParse(input);
  if (!parsed.success)
    throw new RederivationError(
      "statement_unreadable",
      `not a /api/por report: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
    );
  const published: PorReport = parsed.data;
  if (!published.blockHash)
    throw new RederivationError("statement_unreadable", "the report names no block hash: nothing pins its reads");
  const number = BigInt(published.blockNumber);
  const hash = published.blockHash.toLowerCase() as Hex;
  const { transport, client: pinned } = pinnedClients(o.rpc, number, hash);
  const block = await pinnedBlock(pinned, number, hash);
  const reader = new RecordingReader(pinned, number, o.network.reporting.publicRpc.base);
  const [snapshot, precedent] = await Promise.all([
    readChainSnapshot(reader, snapshotAddresses(o.network), block.timestamp),
    precedentFromLogs(createPublicClient({ transport }) as PublicClient, o.network, number),
  ]);
  const a = published.attestation;
  const served: NonNullable<ReportBasis["served"]> = {
    canonicalEndpoint: a.canonicalEndpoint,
    rpcChainLength: a.rpcChainLength,
    indexedHead: { blockNumber: BigInt(a.indexedHeadBlock), timestamp: block.timestamp },
    atHead: published.atHead,
  };
  const recorded = published.reserves.vault.composition.l1Assets.liveVenueEquityUsd;
  const build = (venueEquity: number | null) =>
    reportFrom(snapshot, o.network, block, { venueEquity, precedent, served }, served.canonicalEndpoint);
  const again = build(recorded);
  const alternates = PROBE_EQUITIES.filter((e) => e !== recorded).map(build);
  const rows = figureRows(published, again, alternates)
    .filter((r) => !SERVICE_FIELDS.test(r.figure))
    .map((r): FigureRow => (VENUE_READING.test(r.figure) ? { ...r, basis: "venue-recorded", equal: null } : r));
  return { block, rows, failedReads: snapshot.failedReads, logCalls: precedent.logCalls };
}
