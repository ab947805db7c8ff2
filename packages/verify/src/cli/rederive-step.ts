/**
 * `kusd-verify --rpc`: a signed statement's figures (or an instant read's) re-derived from the
 * reader's RPC (and, for a statement with --proofs, proved to one block hash), as checks and rows
 * of the verdict.
 */
import type { NetworkConfig } from "@kusd/core";
import { type Address, createPublicClient, type Hex, http } from "viem";
import { checkAnchor } from "../anchor/check-anchor.js";
import type { L1Anchoring } from "../l1/base-block-from-l1.js";
import { networkOf } from "../rederive/network.js";
import { rederivationChecks } from "../rederive/rederive-checks.js";
import { isInstantReadPayload, rederiveInstantRead } from "../rederive/rederive-instant-read.js";
import { RederivationError, rederiveStatement } from "../rederive/rederive-statement.js";
import type { ReaderVenue } from "../rederive/venue-bracket.js";
import { rederiveReport, reportKindOf } from "../reports/registry.js";
import { VenueReadError } from "../venue/venue-read-error.js";
import type { RederiveRequest } from "./args.js";
import { SourceError, UsageError } from "./errors.js";
import { anchorFromL1, l1Check } from "./l1-anchor.js";
import { loadNetworkDocument } from "./network-file.js";
import type { RederiveResult, VerifyReport } from "./report.js";

/** The block hash the proofs rest on, and who vouches for it (with --l1-rpc: Ethereum, and what it said). */
async function anchorOf(
  r: RederiveRequest,
  signed: { report_block: number; report_block_hash: Hex },
  own = "the statement's own report_block_hash",
): Promise<{ blockHash: Hex; source: string; l1?: L1Anchoring } | null> {
  if (!r.proofs) return null;
  if (r.proofs.l1) {
    const { anchor, l1 } = await anchorFromL1(r.rpc, r.proofs.l1, {
      number: signed.report_block,
      hash: signed.report_block_hash,
    });
    return { ...anchor, l1 };
  }
  if (r.proofs.blockHash) return { blockHash: r.proofs.blockHash, source: "--block-hash" };
  if (r.proofs.headerRpc) {
    const client = createPublicClient({ transport: http(r.proofs.headerRpc, { retryCount: 1 }) });
    const block = await client.getBlock({ blockNumber: BigInt(signed.report_block) }).catch((e: Error) => {
      throw new SourceError(
        `--header-rpc did not answer for block ${signed.report_block}: ${e.message.split("\n")[0]}`,
        {
          source: r.proofs!.headerRpc!,
        },
      );
    });
    return { blockHash: block.hash, source: `block ${signed.report_block} on --header-rpc ${r.proofs.headerRpc}` };
  }
  return {
    blockHash: signed.report_block_hash,
    source: `${own}, which only --rpc confirms (pass --block-hash or --header-rpc to rest on a hash you chose)`,
  };
}

/** The reader's venue: --venue, else the network document's (null: none). */
function readerVenue(r: RederiveRequest, network: NetworkConfig): ReaderVenue | null {
  const url = r.venue ?? network.reporting.venue.url;
  return url ? { url, bracketTolerance: r.bracketTolerance } : null;
}

/** A source the reader named that did not answer: exit 2, nothing judged. */
function unreachable(e: unknown, r: RederiveRequest): never {
  if (e instanceof VenueReadError)
    throw new SourceError(
      `the venue did not answer (${e.details.url}): ${e.message}${e.details.cause ? `: ${e.details.cause}` : ""}`,
      {
        source: e.details.url,
      },
    );
  if (e instanceof RederivationError || e instanceof SourceError) throw new SourceError(e.message, { source: r.rpc });
  throw e;
}

export async function rederiveStep(
  r: RederiveRequest,
  payloadText: string,
  artifact: unknown,
  authorised: readonly Address[],
  now: number | undefined,
): Promise<RederiveResult> {
  const { doc, name } = await loadNetworkDocument(r.network);
  const payload = JSON.parse(payloadText) as { report_block: number; report_block_hash: Hex };
  const base = { rpc: r.rpc, network: name, rows: [], failedReads: [], proofs: null };
  try {
    const network = networkOf(doc, r.rpc);
    if (isInstantReadPayload(payload)) {
      if (r.proofs) throw new UsageError("--proofs proves a statement's reads; an instant read is re-read, not proved");
      const d = await rederiveInstantRead(payload, artifact, { rpc: r.rpc, network, networkName: name });
      const block = { number: Number(d.block.number), hash: d.block.hash };
      const checks = [...rederivationChecks({ ...d, proofs: null }, r.rpc), ...d.checks];
      return { ...base, block, rows: d.rows, failedReads: d.failedReads, checks };
    }
    const anchor = await anchorOf(r, payload);
    const d = await rederiveStatement(payload, {
      rpc: r.rpc,
      network,
      networkName: name,
      proofs: anchor,
      venue: readerVenue(r, network),
    });
    // Its anchor on Base, on the same RPC: when it was signed, and whether another took its hour.
    const anchored = await checkAnchor(artifact, {
      rpc: r.rpc,
      authorised,
      windowSeconds: r.anchorWindowSeconds,
      ...(now !== undefined && { now }),
    });
    const checks = [...(anchor?.l1 ? [l1Check(anchor.l1)] : []), ...rederivationChecks(d, r.rpc), ...anchored];
    return {
      ...base,
      block: { number: Number(d.block.number), hash: d.block.hash },
      rows: d.rows,
      failedReads: d.failedReads,
      proofs: d.proofs,
      ...(anchor?.l1 && { l1: anchor.l1 }),
      checks,
    };
  } catch (e) {
    if (e instanceof RederivationError && e.code !== "rpc_failed")
      return { ...base, block: null, checks: [{ name: "block", ok: false, detail: e.message }] };
    unreachable(e, r);
  }
}

/** `--report`: a report's figures re-derived, as a verdict on what it says (no one signed it). */
export async function reportStep(
  source: string,
  text: string,
  r: RederiveRequest,
  nowSeconds: number | undefined,
): Promise<VerifyReport> {
  const base = {
    source,
    trust: "none: an unsigned report (who published it is not checked; what it says is)",
    freshness: "not applicable",
    recovered: null,
    signedAt: null,
    payloadText: null,
    notes: [] as string[],
  };
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return { ...base, verified: false, checks: [{ name: "report", ok: false, detail: "not JSON" }] };
  }
  const { doc, name } = await loadNetworkDocument(r.network);
  const kind = reportKindOf(input);
  const result: RederiveResult = {
    rpc: r.rpc,
    network: name,
    block: null,
    rows: [],
    failedReads: [],
    proofs: null,
    checks: [],
  };
  try {
    const network = networkOf(doc, r.rpc);
    const block = (input as { pins?: { block?: { number: number; hash: Hex } | null } } | null)?.pins?.block;
    const anchor = block
      ? await anchorOf(
          r,
          { report_block: block.number, report_block_hash: block.hash },
          "the report's own pins.block.hash",
        )
      : null;
    const d = await rederiveReport(input, {
      rpc: r.rpc,
      network,
      networkName: name,
      venue: readerVenue(r, network),
      ethereumRpc: r.ethereumRpc,
      venueNowMaxAgeSeconds: r.venueNowMaxAgeSeconds,
      nowMs: (nowSeconds ?? Date.now() / 1000) * 1000,
      proofs: anchor,
    });
    const proofs = d.proofs ?? null;
    const checks = [
      ...(anchor?.l1 ? [l1Check(anchor.l1)] : []),
      ...rederivationChecks({ block: d.block, rows: d.rows, proofs }, r.rpc),
      ...d.checks,
    ];
    const rederivation = {
      ...result,
      block: d.block && { number: Number(d.block.number), hash: d.block.hash },
      rows: d.rows,
      failedReads: d.failedReads,
      proofs,
      ...(anchor?.l1 && { l1: anchor.l1 }),
      checks,
    };
    return { ...base, report: d.report, verified: checks.every((c) => c.ok), checks, rederivation };
  } catch (e) {
    if (e instanceof RederivationError && e.code !== "rpc_failed")
      return {
        ...base,
        ...(kind && { report: kind }),
        verified: false,
        checks: [{ name: e.code === "block_not_on_chain" ? "block" : "report", ok: false, detail: e.message }],
      };
    unreachable(e, r);
  }
}
