/**
 * Every report the service publishes, by the name its pins give it (`pins.report`), with the
 * re-derivation that checks it. A report kind without one is said to be unknown, never guessed at.
 */
import { REPORT_KINDS, type ReportKind } from "@kusd/core";
import type { Hex } from "viem";
import { proveReads } from "../proofs/prove-reads.js";
import { anchorElsewhere, provenRows, type Reassemble } from "../proofs/proven-rows.js";
import type { RecordingReader } from "../proofs/recorded-reads.js";
import { RederivationError } from "../rederive/rederive-statement.js";
import { apyVerifier } from "./apy.js";
import { hedgeLedgerVerifier } from "./hedge-ledger.js";
import { historyVerifier } from "./history.js";
import { honestyIndexVerifier } from "./honesty-index.js";
import { lendingOccupancyVerifier } from "./lending-occupancy.js";
import { porVerifier } from "./por.js";
import { psmStatusVerifier } from "./psm-status.js";
import { redemptionPlanVerifier } from "./redemption-plan.js";
import type { ReaderSources, ReportRederivation, ReportVerifier } from "./report-verifier.js";
import { riskStatusVerifier } from "./risk-status.js";
import { statsVerifier } from "./stats.js";
import { violationsVerifier } from "./violations.js";

const VERIFIERS: Partial<Record<ReportKind, ReportVerifier>> = {
  por: porVerifier,
  apy: apyVerifier,
  "hedge-ledger": hedgeLedgerVerifier,
  "honesty-index": honestyIndexVerifier,
  violations: violationsVerifier,
  history: historyVerifier,
  "risk-status": riskStatusVerifier,
  stats: statsVerifier,
  "psm-status": psmStatusVerifier,
  "lending-occupancy": lendingOccupancyVerifier,
  "redemption-plan": redemptionPlanVerifier,
};

/** The report kind a published document says it is (its pins), or null. */
export function reportKindOf(published: unknown): ReportKind | null {
  const kind = (published as { pins?: { report?: unknown } } | null)?.pins?.report;
  return typeof kind === "string" && (REPORT_KINDS as readonly string[]).includes(kind) ? (kind as ReportKind) : null;
}

export function verifierFor(kind: ReportKind): ReportVerifier | null {
  return VERIFIERS[kind] ?? null;
}

/** The reports this verifier re-derives, with where each is published. */
export const knownReports = (): { report: ReportKind; path: string }[] =>
  Object.values(VERIFIERS).map((v) => ({ report: v.report, path: v.path }));

export async function rederiveReport(published: unknown, sources: ReaderSources): Promise<ReportRederivation> {
  const kind = reportKindOf(published);
  if (!kind)
    throw new RederivationError(
      "report_unreadable",
      `not a report of this service: it carries no pins.report naming one of ${REPORT_KINDS.join(", ")}`,
    );
  const verifier = verifierFor(kind);
  if (!verifier)
    throw new RederivationError("report_unreadable", `no re-derivation of the ${kind} report is known here`);
  if (!sources.proofs) return verifier.rederive(published, sources);
  const readers: RecordingReader[] = [];
  const d = await verifier.rederive(published, { ...sources, readers });
  const reader = readers[0];
  // A report of the venue alone reads no chain: nothing to prove.
  if (!d.block || !reader) return { ...d, proofs: null };
  const anchor = { blockHash: sources.proofs.blockHash.toLowerCase() as Hex, source: sources.proofs.source };
  const reads = readers.flatMap((r) => r.reads);
  const proofs =
    anchor.blockHash === d.block.hash.toLowerCase()
      ? await proveReads(reads, {
          client: reader.client,
          blockNumber: d.block.number,
          chainId: sources.network.chains.base.id,
          anchor,
        })
      : anchorElsewhere(anchor, d.block.hash);
  // The figures again from the recorded reads, one answer changed: the report as its rows re-derive it.
  const reassemble: Reassemble = async (replay) => {
    const again = await verifier.rederive(published, { ...sources, proofs: null, replay });
    return Object.fromEntries(again.rows.map((r) => [r.figure, r.rederived]));
  };
  return { ...d, proofs, rows: await provenRows(d.rows, proofs, reads, reassemble, d.unproven) };
}
