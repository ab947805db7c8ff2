/**
 * The I/O edge of the reserves report: gathers the pinned chain snapshot, the venue read and
 * the indexed history for one block, then hands them to the pure assembler. What cannot change
 * at a block (the snapshot, the indexed history, the built report) is kept per block and block
 * hash, concurrent builds of the same block are one build, and what the spec wants live is read
 * on every request (see LiveReads); the venue is read at most every `venueMaxAgeSeconds`.
 */

import type { ChainSnapshot, PsmKey, Read } from "@kusd/core";
import {
  buildPorReport,
  none as noVenue,
  type PorReport,
  recordedVenueBasis,
  type VenueBasis,
  venueReadCommand,
} from "@kusd/core";
import type { Hex } from "viem";
import {
  listedAccounts,
  MINTER_ROLE,
  PinnedReader,
  PSM_KEYS,
  readChainSnapshot,
  snapshotAddresses,
  tolerantReads,
} from "../../packages/verify/src/index.js";
import {
  type BlockHeader,
  liveClient,
  type ReportBlock,
  type ReportContext,
  reportBlockHeader,
  rpcHead,
} from "../context.js";
import { render } from "../http/rendered.js";
import { kusdBurnedUpTo, redemptionsUpTo } from "../io/indexed-reads.js";
import type { Memo } from "../io/memo.js";
import { readVenueNow } from "../io/venue-now.js";
import type { PorHistory, PorLiveRoles, RenderedPor, VenueNow } from "../report-values.js";
import { porReportKey } from "./por-report-key.js";

/** The chain snapshot at `blockNumber`; its timestamp from the block's header when the caller has it. */
export async function readSnapshot(
  ctx: ReportContext,
  blockNumber: bigint,
  header: BlockHeader | null = null,
): Promise<ChainSnapshot> {
  return readChainSnapshot(
    new PinnedReader(ctx.base, blockNumber, ctx.network.reporting.publicRpc.base),
    snapshotAddresses(ctx.network),
    header?.timestamp,
  );
}

/**
 * What a report reads on every request, shared by requests that arrive together (one read for
 * all of them, a new read for the next): the block's header (its hash is part of every cache
 * key, so a reorg never serves the old branch), the RPC's head (attestation.rpcChainLength) and
 * kUSD hasRole(MINTER_ROLE, psm) for each PSM (spec: holdsRole is read live on every request; a
 * request that reads the block's snapshot reads them there, in the block's batch).
 */
type LiveReads = {
  blockHash: Hex | null;
  rpcChainLength: number | null;
  minterRoles: Record<PsmKey, Read<boolean> | null>;
  failedReads: string[];
};

export type { PorHistory, PorLiveRoles, RenderedPor };

/** holdsRole of each PSM read now, through the live client. */
async function readLiveRoles(ctx: ReportContext, blockNumber: bigint): Promise<PorLiveRoles> {
  const n = ctx.network;
  const { read, failedReads } = tolerantReads(
    new PinnedReader(liveClient(ctx), blockNumber, n.reporting.publicRpc.base),
  );
  const roles = await Promise.all(
    PSM_KEYS.map((k) =>
      read<boolean>({
        to: n.kUSD.address,
        signature: "hasRole(bytes32,address)(bool)",
        args: [MINTER_ROLE, n.psms[k].address],
      }),
    ),
  );
  const minterRoles = Object.fromEntries(PSM_KEYS.map((k, i) => [k, roles[i] ?? null])) as Record<
    PsmKey,
    Read<boolean> | null
  >;
  return { minterRoles, failedReads };
}

/**
 * The venue equity a report at `at` reconciles the mirror against (packages/core/src/reserves/por/venue-read.ts).
 * A block whose reading a signed statement recorded keeps it, at the head too, so a statement is
 * reproducible from the moment it is published; otherwise the head reads the venue now, and a past
 * block takes the reading recorded nearest before it.
 */
export async function venueBasisAt(
  ctx: ReportContext,
  at: ReportBlock,
  blockTimestamp: number,
  blockHash: Hex | null = null,
): Promise<{ basis: VenueBasis; now: VenueNow | null }> {
  // At the head only a reading recorded at this very block counts (otherwise the venue is read now).
  const recorded = ctx.venueRecords
    ? await ctx.venueRecords.atOrBefore(at.blockNumber, { hash: blockHash, exact: at.atHead })
    : null;
  if (at.atHead && recorded?.blockNumber !== Number(at.blockNumber)) {
    const now = await readVenueNow(ctx);
    const basis: VenueBasis = now.state
      ? {
          source: "live",
          state: now.state,
          reason: null,
          ageSeconds: Math.max(0, Math.floor((Date.now() - now.readAtMs) / 1000)),
          recorded: null,
          receivedAtMs: now.readAtMs,
        }
      : noVenue(now.reason ?? "venue not read");
    return { basis, now };
  }
  if (!ctx.venueRecords) return { basis: noVenue("past block: no venue readings are kept by this service"), now: null };
  return { basis: recordedVenueBasis(recorded, blockTimestamp), now: null };
}

/** The cached snapshot with this request's live role reads in place of its own. */
function withLiveRoles(s: ChainSnapshot, live: PorLiveRoles): ChainSnapshot {
  const psm = (k: PsmKey) => ({ ...s.psms[k], holdsMinterRole: live.minterRoles[k] });
  const own = s.failedReads.filter((r) => !r.includes("hasRole("));
  return {
    ...s,
    psms: { psmMint: psm("psmMint"), psmRetiredMint: psm("psmRetiredMint"), psmRedeemReserve: psm("psmRedeemReserve") },
    failedReads: [...own, ...live.failedReads],
  };
}

/**
 * The report at `at`, serialised once per distinct set of inputs. `chainHead`: the RPC's head as
 * this request already read it (a statement checks it first), not read again.
 */
export async function renderPorReport(
  ctx: ReportContext,
  at: ReportBlock,
  options: {
    chainHead?: bigint | null;
    /**
     * Started in the same turn as a snapshot this request reads (so their pinned reads join its
     * Multicall3 batch: one aggregate3 for the block), given the block's header.
     */
    alongside?: (header: BlockHeader | null) => void;
  } = {},
): Promise<RenderedPor> {
  const started = performance.now();
  const c = ctx.caches.por;
  const header = await reportBlockHeader(ctx, at.blockNumber);
  const blockHash = header?.hash ?? null;
  // Without the block's hash nothing can be keyed safely: read everything for this request alone.
  const keyed = <V>(m: Memo<V>, key: string, build: () => Promise<V>) =>
    blockHash ? m(`${at.blockNumber}:${blockHash}:${key}`, build) : build();
  // A request that reads the snapshot reads holdsRole in it, now: those are its live reads.
  let snapshotReadNow = false;
  const snapshotRead = keyed(c.snapshots, "", () => {
    snapshotReadNow = true;
    options.alongside?.(header);
    return readSnapshot(ctx, at.blockNumber, header);
  });
  const [snapshot, history, chainHead, liveRoles] = await Promise.all([
    snapshotRead,
    keyed(c.history, "", async () => {
      const [redemptions, burned] = await Promise.all([
        redemptionsUpTo(ctx.db, at.blockNumber),
        kusdBurnedUpTo(ctx.db, at.blockNumber),
      ]);
      return { redemptions, burned };
    }),
    options.chainHead ?? rpcHead(ctx),
    snapshotReadNow ? null : c.liveRoles(`${at.blockNumber}:${blockHash}`, () => readLiveRoles(ctx, at.blockNumber)),
  ]);
  const rolesNow: PorLiveRoles = liveRoles ?? {
    minterRoles: Object.fromEntries(
      PSM_KEYS.map((k) => [k, snapshot.psms[k].holdsMinterRole]),
    ) as PorLiveRoles["minterRoles"],
    failedReads: snapshot.failedReads.filter((r) => r.includes("hasRole(")),
  };
  // Read with the snapshot just now: they serve the next requests of `headFreshMs` as a live read would.
  if (!liveRoles) void c.liveRoles(`${at.blockNumber}:${blockHash}`, async () => rolesNow);
  const live: LiveReads = { blockHash, rpcChainLength: chainHead === null ? null : Number(chainHead), ...rolesNow };
  const { basis, now } = await venueBasisAt(ctx, at, snapshot.blockTimestamp, blockHash);
  const key = porReportKey({
    roles: PSM_KEYS.map((k) => String(live.minterRoles[k]?.value ?? null)).join(","),
    rpcChainLength: live.rpcChainLength,
    blockNumber: at.blockNumber,
    headBlockNumber: at.head.blockNumber,
    atHead: at.atHead,
    venueReadAtMs: now?.readAtMs,
    venue: { ...basis, statement: basis.recorded?.statement },
  });
  const built = await keyed(c.reports, key, async () => {
    const report = buildPor(ctx, at, withLiveRoles(snapshot, live), basis, history, live);
    const rendered = render(report);
    // From the request's start: the reads that fed this build are most of its cost.
    ctx.observeBuild?.("por", (performance.now() - started) / 1000);
    return { report, rendered, venueNow: null };
  });
  return { ...built, venueNow: now };
}

export async function loadPorReport(ctx: ReportContext, at: ReportBlock): Promise<PorReport> {
  return (await renderPorReport(ctx, at)).report;
}

function buildPor(
  ctx: ReportContext,
  at: ReportBlock,
  snapshot: ChainSnapshot,
  venue: VenueBasis,
  history: PorHistory,
  live: Pick<LiveReads, "blockHash" | "rpcChainLength">,
): PorReport {
  const n = ctx.network;
  return buildPorReport({
    chainId: n.chains.base.id,
    documentSha256: n.documentSha256,
    snapshot,
    blockHash: live.blockHash,
    venue: {
      ...venue,
      url: n.reporting.venue.url,
      account: n.reporting.venue.account,
      readCommand: n.reporting.venue.url ? venueReadCommand(n.reporting.venue.url, n.reporting.venue.account) : null,
    },
    precedent: {
      redemptions: history.redemptions,
      registry: n.registry.versions,
      kusdBurned: history.burned,
      completeAsOf: { blockNumber: at.blockNumber, timestamp: snapshot.blockTimestamp },
      kusd: n.kUSD.address,
      fromBlock: n.kUSD.startBlock,
      rpcUrl: n.reporting.publicRpc.base,
    },
    registry: n.registry.versions,
    addresses: { kUSD: n.kUSD.address, usdc: n.usdc.address, weth: n.weth.address, ethUsdFeed: n.reporting.ethUsdFeed },
    listed: listedAccounts(ctx.network),
    rpcChainLength: live.rpcChainLength,
    canonicalEndpoint: `${ctx.siteUrl}/api/por`,
    commandRpcUrl: n.reporting.publicRpc.base,
    indexedHead: { blockNumber: at.head.blockNumber, timestamp: at.head.timestamp },
    atHead: at.atHead,
  });
}
