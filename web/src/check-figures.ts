/**
 * "Check every figure against your own RPC": the statement's figures, and those of /api/apy and
 * /api/hedge-ledger, re-derived in this page from the reader's RPC and venue, with the verifier
 * package's own code (kusd-verify --rpc, --proofs; kusd-verify --report). Nothing is read from this
 * site but the statement, the two reports as the page shows them, and the network document; the
 * RPC and the venue are reached only because the page was opened with them (`?rpc=`, `?venue=`),
 * which is when its content security policy allows them. With the reader's Ethereum RPC (`?l1rpc=`)
 * the statement's block is proven from the output roots Base posts on Ethereum first, with the
 * verifier's own `--l1-rpc` step (cli/l1-anchor.ts): proven, the proofs rest on that hash; pending
 * or failed, on the statement's own, and the `ethereum` check says which.
 */

import type { NetworkDocument } from "@kusd/config";
import { ANCHOR_WINDOW_SECONDS, type ReportKind } from "@kusd/core";
import {
  anchorFromL1,
  type Check,
  checkAnchor,
  DEFAULT_BRACKET_TOLERANCE,
  type FigureRow,
  kindSummary,
  type L1Anchoring,
  l1Check,
  networkOf,
  rederivationChecks,
  rederiveReport,
  rederiveStatement,
  trustFromBinding,
  VENUE_NOW_MAX_AGE_SECONDS,
  VenueReadError,
} from "../../packages/verify/src/index.js";

export type FigureCheck = {
  rows: FigureRow[];
  checks: Check[];
  block: number;
  /** The rows by kind, as kusd-verify prints them ("52 figures: 40 equal, 0 differs, …"). */
  summary: string;
  /** With an Ethereum RPC: the statement's block proven from Ethereum, pending, or why not (its check is in `checks`). */
  ethereum: L1Anchoring | null;
  /** From the page's load to the full table, in ms. */
  ms: number;
};

/** One report's re-derivation, or why it could not be made (a source that did not answer). */
export type ReportCheck =
  | {
      report: ReportKind;
      path: string;
      rows: FigureRow[];
      checks: Check[];
      block: number | null;
      summary: string;
      error: null;
    }
  | { report: ReportKind | null; path: string; error: string };

export type YieldCheck = {
  reports: ReportCheck[];
  /** From the page's load to the full table, in ms. */
  ms: number;
};

const readerVenue = (venue: string | null) =>
  venue === null ? null : { url: venue, bracketTolerance: DEFAULT_BRACKET_TOLERANCE };

/** The page's load is the clock's origin (performance.timeOrigin). */
const sinceLoad = () => Math.round(performance.now());

/**
 * The block hash the proofs rest on, as `kusd-verify --rpc <rpc> --l1-rpc <l1rpc>` finds it
 * (cli/rederive-step.ts's anchorOf): proven from Ethereum's latest block on the reader's Ethereum
 * RPC, or (pending, failed) the statement's own hash; without an Ethereum RPC, the statement's own
 * hash as the reader's RPC confirms it. An Ethereum RPC that does not answer fails the check.
 */
async function proofsAnchor(
  payload: { report_block: number; report_block_hash: `0x${string}` },
  o: { rpc: string; venue: string | null; proofs: boolean; l1rpc: string | null },
): Promise<{ anchor: { blockHash: `0x${string}`; source: string } | null; ethereum: L1Anchoring | null }> {
  if (o.l1rpc === null)
    return {
      anchor: o.proofs
        ? { blockHash: payload.report_block_hash, source: "the statement's report_block_hash, as your RPC confirms it" }
        : null,
      ethereum: null,
    };
  const l1 = { rpc: o.l1rpc, blockHash: null };
  const { anchor, l1: ethereum } = await anchorFromL1(o.rpc, l1, {
    number: payload.report_block,
    hash: payload.report_block_hash,
  });
  return { anchor, ethereum };
}

export async function checkFigures(
  statementText: string,
  networkText: string,
  trust: { bindingText: string | null; operator: string },
  o: { rpc: string; venue: string | null; proofs: boolean; l1rpc: string | null },
): Promise<FigureCheck> {
  const artifact = JSON.parse(statementText) as { signed_payload_canonical: string };
  const payload = JSON.parse(artifact.signed_payload_canonical);
  const network = networkOf(JSON.parse(networkText) as NetworkDocument, o.rpc);
  const { anchor: proofs, ethereum } = await proofsAnchor(payload, o);
  const d = await rederiveStatement(payload, {
    rpc: o.rpc,
    network,
    networkName: "/api/network",
    proofs,
    venue: readerVenue(o.venue),
  });
  // Its anchor on Base, read from the same RPC, against the keys the operator's binding authorises.
  const binding = await trustFromBinding(
    trust.bindingText === null ? null : JSON.parse(trust.bindingText),
    trust.operator as `0x${string}`,
  );
  const anchor = await checkAnchor(artifact, {
    rpc: o.rpc,
    authorised: binding.trustedSigner(payload.timestamp),
    windowSeconds: ANCHOR_WINDOW_SECONDS,
  });
  return {
    rows: d.rows,
    // In the command line's order: Ethereum's verdict on the block first.
    checks: [...(ethereum ? [l1Check(ethereum)] : []), ...rederivationChecks(d, o.rpc), ...anchor],
    block: Number(d.block.number),
    summary: kindSummary(d.rows),
    ethereum,
    ms: sinceLoad(),
  };
}

/** One published report re-derived as `kusd-verify --report` does (cli/rederive-step.ts's reportStep). */
async function checkReport(
  path: string,
  text: string,
  networkText: string,
  o: { rpc: string; venue: string | null },
): Promise<ReportCheck> {
  try {
    const network = networkOf(JSON.parse(networkText) as NetworkDocument, o.rpc);
    const d = await rederiveReport(JSON.parse(text), {
      rpc: o.rpc,
      network,
      networkName: "/api/network",
      venue: readerVenue(o.venue),
      venueNowMaxAgeSeconds: VENUE_NOW_MAX_AGE_SECONDS,
      nowMs: Date.now(),
    });
    return {
      report: d.report,
      path,
      rows: d.rows,
      checks: [...rederivationChecks({ block: d.block, rows: d.rows, proofs: null }, o.rpc), ...d.checks],
      block: d.block === null ? null : Number(d.block.number),
      summary: kindSummary(d.rows),
      error: null,
    };
  } catch (e) {
    const cause = e instanceof VenueReadError && e.details.cause ? `: ${e.details.cause}` : "";
    const message = `${(e as Error).message.split("\n")[0]}${cause}`;
    return { report: null, path, error: message };
  }
}

/** /api/apy and /api/hedge-ledger, as the page shows them, re-derived side by side. */
export async function checkYieldReports(
  texts: { apy: string; ledger: string },
  networkText: string,
  o: { rpc: string; venue: string | null },
): Promise<YieldCheck> {
  const reports = await Promise.all([
    checkReport("/api/apy", texts.apy, networkText, o),
    checkReport("/api/hedge-ledger", texts.ledger, networkText, o),
  ]);
  return { reports, ms: sinceLoad() };
}
