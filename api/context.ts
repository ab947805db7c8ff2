/**
 * What every report needs: the deployment, the indexed tables, a chain client for pinned
 * reads, and the venue. Built once per process (Ponder API or a standalone reader).
 */

import type { NetworkConfig, RecordedVenueReading } from "@kusd/core";
import {
  countedHttp,
  observeRefusals,
  outsideReaderRequests,
  type ReaderBudget,
  type RpcPurpose,
  readerHttp,
  shareRefusals,
} from "@kusd/rpc";
import { createPublicClient, type Hex, type PublicClient } from "viem";
import type { CacheLimits } from "./cache-limits.js";
import { ApiError, badRequest } from "./http/errors.js";
import { blockParam } from "./http/query-params.js";
import { type IndexedHead, indexedHead, type ReadDb } from "./io/indexed-reads.js";
import type { IndexerHeaders } from "./io/indexer-headers.js";
import { createReportCaches, type ReportCaches } from "./report-caches.js";
import type { BlockHeader } from "./report-values.js";

export type ReportContext = {
  network: NetworkConfig;
  db: ReadDb;
  /** Reads pinned to a report's block (counted as the "reports" purpose). */
  base: PublicClient;
  /**
   * The same RPC for what is read per request rather than per block (the block's hash, the RPC's
   * head, holdsRole), counted as "live reads"; absent: `base`.
   */
  live?: PublicClient;
  ethereum: PublicClient;
  /** The venue's POST /info endpoint (null: none configured); read through packages/verify's venue module. */
  venue: { url: string } | null;
  /** Public base URL of the unpaid site, for canonicalEndpoint fields. */
  siteUrl: string;
  /** The venue is read at most this often (seconds; 0: on every request), and the age is published. */
  venueMaxAgeSeconds: number;
  /** One read of the indexed head (and of a block's hash) serves every report for this long (ms; 0: only concurrent requests share it). */
  headFreshMs: number;
  /** Told how long each report build took (GET /metrics' kusd_report_build_seconds). */
  observeBuild?: (report: string, seconds: number) => void;
  /** Every cache the reports keep (report-caches.ts), built with the context. */
  caches: ReportCaches;
  /** The venue readings signed statements used: a past block's report reconciles against the nearest (absent: none kept). */
  venueRecords?: VenueRecords;
  /** The headers of the blocks the indexer in this process read (absent: outside Ponder; every header is read). */
  indexerHeaders?: Pick<IndexerHeaders, "at">;
};

export type VenueRecords = {
  /**
   * The reading recorded nearest at or before the block on the chain as it is now. `known.hash`:
   * the block's hash as the caller read it (not read again); `known.exact`: only a reading at that
   * very block is wanted (a report at the head reads the venue now otherwise).
   */
  atOrBefore(blockNumber: bigint, known?: { hash: Hex | null; exact?: boolean }): Promise<RecordedVenueReading | null>;
  /** A reading was just recorded: the next ask reads the store again. */
  forget(): void;
};

/**
 * 4 s, two Base blocks: what is read per request rather than per block (a block's header when the
 * indexer did not read it, the RPC's head, holdsRole) is read once in that time however many read
 * the reports, so readers cost RPC calls per 4 s, not per request. bench:cost, 100 pages open on
 * the rehearsal: within the issue's 2 × of nobody reading (docs/running-on-base.md).
 */
export const DEFAULT_HEAD_FRESH_MS = 4_000;

/** The indexed head as reports see it: one read per 100 ms at most (report-caches.ts; headFreshMs 0: indexedHead's own sharing of concurrent reads). */
export function reportHead(ctx: ReportContext): Promise<IndexedHead | null> {
  if (ctx.headFreshMs === 0) return indexedHead(ctx.db, "base");
  return ctx.caches.head("base", () => indexedHead(ctx.db, "base"));
}

/**
 * The head to check an asked-for block against: the kept head may trail the indexer by
 * headFreshMs, so a block past it is checked against the indexer itself before it is refused (a
 * block a client has seen indexed is never "not indexed").
 */
export async function headReaching(
  ctx: ReportContext,
  kept: IndexedHead | null,
  blockNumber: bigint,
): Promise<IndexedHead | null> {
  if (ctx.headFreshMs === 0 || (kept && blockNumber <= kept.blockNumber)) return kept;
  return (await indexedHead(ctx.db, "base")) ?? kept;
}

/** The client for what is read per request (counted as "live reads"). */
export const liveClient = (ctx: ReportContext): PublicClient => ctx.live ?? ctx.base;

/** A report block's header: what every report needs of the block itself. */
export type { BlockHeader };

/**
 * A report block's hash and timestamp: the indexer's own when it read that block in this process
 * (no call), or one eth_getBlockByNumber read at most every `headFreshMs` (0: only requests that
 * arrive together share the read). Cached reports are keyed by block
 * number and hash, so after a reorg the same number is a different key and the old branch is not
 * served longer than that; the timestamp comes with it, so a report reads its block once. Null
 * when the read fails (and a failure is not kept).
 */
export function reportBlockHeader(ctx: ReportContext, blockNumber: bigint): Promise<BlockHeader | null> {
  const read = ctx.indexerHeaders?.at(blockNumber);
  if (read) return Promise.resolve(read);
  return ctx.caches.headers(String(blockNumber), () =>
    liveClient(ctx)
      .getBlock({ blockNumber })
      .then(
        (b) => ({ hash: b.hash, timestamp: Number(b.timestamp) }),
        () => null,
      ),
  );
}

/** The hash of a report's block (see reportBlockHeader). */
export function reportBlockHash(ctx: ReportContext, blockNumber: bigint): Promise<Hex | null> {
  return reportBlockHeader(ctx, blockNumber).then((h) => h?.hash ?? null);
}

/** The block's timestamp from its header, or read now when the header read failed (throws when this fails too). */
export async function blockTimestamp(ctx: ReportContext, blockNumber: bigint, header: BlockHeader | null) {
  return header?.timestamp ?? Number((await ctx.base.getBlock({ blockNumber })).timestamp);
}

/** The RPC's head block (eth_blockNumber), shared like the header; null when the read fails. */
export function rpcHead(ctx: ReportContext): Promise<bigint | null> {
  return ctx.caches.rpcHead("head", () =>
    liveClient(ctx)
      .getBlockNumber({ cacheTime: 0 })
      .catch(() => null),
  );
}

export const DEFAULT_VENUE_MAX_AGE_SECONDS = 5;

/**
 * A chain client of the service, its calls counted under `purpose` (kusd_rpc_calls_total). A
 * block's pinned reads go out as one Multicall3 aggregate3 (io/pinned-reader.ts; `multicall`
 * lets viem join the calls of one turn), and what else goes out together shares one HTTP request
 * (JSON-RPC batch). No retries: a read that fails is reported as unknown at once rather than
 * slowing every request. With `readerBudget`, a readers' client: each call is taken from that
 * budget, and a refusal it hands back marks the request (packages/rpc/src/reader-scope.ts).
 */
export function rpcClient(url: string, purpose: RpcPurpose, readerBudget?: ReaderBudget): PublicClient {
  const http = { batch: { batchSize: 100 }, retryCount: 0, timeout: 10_000 };
  const client = createPublicClient({
    transport: readerBudget ? readerHttp(url, purpose, readerBudget, http) : countedHttp(url, purpose, http),
    batch: { multicall: true },
  }) as PublicClient;
  return readerBudget ? observeRefusals(client) : client;
}

export function createReportContext(
  network: NetworkConfig,
  db: ReadDb,
  siteUrl: string,
  options: {
    venueMaxAgeSeconds?: number;
    headFreshMs?: number;
    observeBuild?: ReportContext["observeBuild"];
    venueRecords?: VenueRecords;
    indexerHeaders?: ReportContext["indexerHeaders"];
    /** The caches' limits (cache-limits.ts; unset: the defaults). */
    cacheLimits?: CacheLimits;
    /**
     * Readers' reports: every chain call is taken from this budget, and a build that met its
     * refusal fails for every request that waited for it rather than serving them null figures.
     */
    readerBudget?: ReaderBudget;
    /** The operator's own reports (the statements): no reader's budget, and builds a reader's request never pays for. */
    operator?: boolean;
  } = {},
): ReportContext {
  const venueMaxAgeSeconds = options.venueMaxAgeSeconds ?? DEFAULT_VENUE_MAX_AGE_SECONDS;
  const headFreshMs = options.headFreshMs ?? DEFAULT_HEAD_FRESH_MS;
  const budget = options.readerBudget;
  const caches = createReportCaches({
    headFreshMs,
    venueMaxAgeSeconds,
    ...(options.cacheLimits && { limits: options.cacheLimits }),
  });
  return {
    network,
    db,
    base: rpcClient(network.reporting.readRpc.base, "reports", budget),
    live: rpcClient(network.reporting.readRpc.base, "live reads", budget),
    ethereum: rpcClient(network.reporting.readRpc.ethereum, "reports", budget),
    venue: network.reporting.venue.url ? { url: network.reporting.venue.url } : null,
    siteUrl,
    venueMaxAgeSeconds,
    headFreshMs,
    caches: budget ? shareRefusals(caches) : options.operator ? outsideReaderRequests(caches) : caches,
    ...(options.observeBuild && { observeBuild: options.observeBuild }),
    ...(options.venueRecords && { venueRecords: options.venueRecords }),
    ...(options.indexerHeaders && { indexerHeaders: options.indexerHeaders }),
  };
}

export type ReportBlock = { blockNumber: bigint; atHead: boolean; head: IndexedHead };

/**
 * The block a report is computed at: the indexed head, or `?block=N` when given. A block the
 * indexer has not reached, or one before the protocol existed, is the caller's error (4xx).
 */
export async function resolveReportBlock(ctx: ReportContext, requested: string | undefined): Promise<ReportBlock> {
  const head = await reportHead(ctx);
  if (!head || head.blockNumber < BigInt(ctx.network.kUSD.startBlock)) {
    throw new ApiError("not_indexed_yet", "the indexer has not reached the protocol's first block yet");
  }
  if (requested === undefined || requested === "" || requested === "latest")
    return { blockNumber: head.blockNumber, atHead: true, head };
  const format = blockParam.safeParse(requested);
  if (!format.success) throw badRequest("invalid_block", format.error.issues[0]!.message, { block: requested });
  const blockNumber = BigInt(requested);
  const first = BigInt(ctx.network.kUSD.startBlock);
  if (blockNumber < first)
    throw badRequest("block_before_deployment", `block ${blockNumber} is before kUSD was deployed (block ${first})`, {
      block: requested,
      firstBlock: Number(first),
    });
  const current = await headReaching(ctx, head, blockNumber);
  if (!current || blockNumber > current.blockNumber) {
    const indexed = current?.blockNumber ?? head.blockNumber;
    throw new ApiError("block_not_indexed", `block ${blockNumber} is past the indexed head ${indexed}`, {
      block: requested,
      indexedHead: Number(indexed),
    });
  }
  return { blockNumber, atHead: blockNumber === current.blockNumber, head: current };
}

/** Blocks the indexer may trail the chain by and still count as caught up. */
export const CAUGHT_UP_LAG = 10n;

/**
 * Whether the indexer has caught up with the chain: a statement dated now must not be built
 * from a history still being backfilled.
 */
export async function indexerCaughtUp(
  ctx: ReportContext,
): Promise<{ caughtUp: boolean; indexed: bigint | null; chain: bigint | null }> {
  const [head, chain] = await Promise.all([indexedHead(ctx.db, "base"), rpcHead(ctx)]);
  const indexed = head?.blockNumber ?? null;
  return { caughtUp: indexed !== null && chain !== null && chain - indexed <= CAUGHT_UP_LAG, indexed, chain };
}
