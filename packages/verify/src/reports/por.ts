/**
 * GET /api/por (or `?block=N`) re-derived from the reader's own RPC: the chain read at the
 * report's block (pinned by its hash) with the service's read plan, the redemption precedent
 * rebuilt from the PSMs' logs up to that block (precedent-from-logs.ts), the same pure assembler,
 * and the venue equity the report used, bracketed in the venue's account value history around the
 * time it answered. The service's own context (its URL, its RPC's head, whether the block was its
 * head) is copied, never compared.
 */

import { type Pins, type PorReport, PorReportSchema, type VenueBasis } from "@kusd/core";
import { type Address, createPublicClient, type PublicClient } from "viem";
import { snapshotAddresses } from "../read-plan/addresses.js";
import { readChainSnapshot } from "../read-plan/chain-snapshot.js";
import { classifyFigures, type RestingInput } from "../rederive/classify.js";
import { leaves } from "../rederive/figure-rows.js";
import { precedentFromLogs } from "../rederive/precedent-from-logs.js";
import { type ReportBasis, recordedEquityInput, reportFrom } from "../rederive/rederive-statement.js";
import { isPin, openPinnedChain, parseReport, type ReportVerifier, readPins } from "./report-verifier.js";

/** What the report states about the service, not about the chain: left out of the rows. */
const SERVICE_FIELDS = /^(blockNumber|blockHash|atHead|methodology|attestation\.)/;

/** The venue's answer as the report describes it (venueRead, and the request its pins record). */
function recordedBasis(r: PorReport, pins: Pins): VenueBasis {
  const l1 = r.reserves.vault.composition.l1Assets;
  const vr = l1.venueRead;
  const request = pins.venue?.requests.find((q) => q.request.type === "clearinghouseState");
  return {
    source: vr.source,
    state:
      l1.liveVenueEquityUsd === null
        ? null
        : { equityUsd: l1.liveVenueEquityUsd, time: vr.venueTime === null ? null : Date.parse(vr.venueTime) },
    reason: vr.reason,
    ageSeconds: vr.ageSeconds,
    recorded:
      vr.recordedAtBlock === null
        ? null
        : { blockNumber: vr.recordedAtBlock, statement: vr.statement, statementUrl: vr.statementUrl },
    receivedAtMs: request?.receivedAtMs ?? null,
  };
}

/** Every contract address the report names: each must be one the reader's network document names. */
function namedContracts(r: PorReport): Address[] {
  const res = r.reserves;
  return [
    res.vault.address,
    res.vaultV2.address,
    res.stakedVault.address,
    res.stakedVaultDeprecated.address,
    res.psmMint.address,
    res.psmRetiredMint.address,
    res.psmRedeemReserve.address,
    r.liabilities.kUSD.address,
  ];
}

export const porVerifier: ReportVerifier = {
  report: "por",
  path: "/api/por",
  async rederive(input, s) {
    const published = parseReport(PorReportSchema, input, "/api/por");
    const pins = readPins(published);
    const { transport, block, reader } = await openPinnedChain(pins, s, namedContracts(published));
    const n = s.network;
    const [snapshot, precedent] = await Promise.all([
      readChainSnapshot(reader, snapshotAddresses(n), block.timestamp),
      precedentFromLogs(createPublicClient({ transport }) as PublicClient, n, block.number),
    ]);
    const a = published.attestation;
    const served: NonNullable<ReportBasis["served"]> = {
      canonicalEndpoint: a.canonicalEndpoint,
      venueUrl: pins.venue?.url ?? null,
      rpcChainLength: a.rpcChainLength,
      indexedHead: { blockNumber: BigInt(a.indexedHeadBlock), timestamp: block.timestamp },
      atHead: published.atHead,
    };
    const l1 = published.reserves.vault.composition.l1Assets;
    const recorded = recordedBasis(published, pins);
    type Inputs = { venue: VenueBasis };
    const build = (i: Inputs) =>
      reportFrom(snapshot, n, block, { venue: i.venue, precedent, served }, served.canonicalEndpoint);
    const equity = recorded.state?.equityUsd ?? null;
    const withEquity = (i: Inputs, e: number | null): Inputs => ({
      venue:
        e === null
          ? { ...i.venue, state: null }
          : { ...i.venue, state: { equityUsd: e, time: i.venue.state?.time ?? null } },
    });
    const answeredAt = l1.venueRead.venueTime ? Date.parse(l1.venueRead.venueTime) : Date.parse(published.timestamp);
    const resting: RestingInput<Inputs>[] = [
      {
        category: "venue-now",
        perturb: [
          (i) => ({
            venue: {
              ...i.venue,
              source: i.venue.source === "live" ? "recorded" : "live",
              reason: `${i.venue.reason ?? ""} (probe)`,
              ageSeconds: (i.venue.ageSeconds ?? 0) + 1,
              state: i.venue.state && { ...i.venue.state, time: (i.venue.state.time ?? 0) + 1_000 },
              recorded: { blockNumber: -1, statement: "probe", statementUrl: "probe" },
            },
          }),
        ],
        note: "how the service read the venue (live now, or the reading a statement recorded): as it published it",
      },
    ];
    if (equity !== null)
      resting.push(
        await recordedEquityInput<Inputs>(s.venue, n.reporting.venue.account, equity, answeredAt, withEquity),
      );
    const rows = classifyFigures<Inputs>({
      published,
      inputs: { venue: recorded },
      build,
      resting,
      skip: (f) => isPin(f) || SERVICE_FIELDS.test(f),
    });
    const precedentRows = rows.filter((x) => x.figure.startsWith("redemptionDepth.precedent."));
    // What moves when the logs say otherwise rests on them.
    const asBuilt = new Map(leaves(build({ venue: recorded })));
    const otherLogs = { redemptions: [], kusdBurned: precedent.kusdBurned + 1n };
    const fromLogs = leaves(
      reportFrom(snapshot, n, block, { venue: recorded, precedent: otherLogs, served }, served.canonicalEndpoint),
    ).flatMap(([f, v]) => (asBuilt.get(f) === v ? [] : [f]));
    return {
      report: "por",
      block,
      rows,
      failedReads: snapshot.failedReads,
      unproven: { figures: fromLogs, source: "the redemption precedent, from the PSMs' and kUSD's logs (eth_getLogs)" },
      checks: [
        {
          name: "precedent",
          ok: precedentRows.every((x) => x.kind !== "differs"),
          detail: `rebuilt from the PSMs' Swap logs and kUSD's burns up to block ${block.number} (${precedent.logCalls} eth_getLogs calls)`,
        },
      ],
    };
  },
};
