/**
 * What every report needs: the deployment, the indexed tables, a chain client for pinned
 * reads, and the venue. Built once per process (Ponder API or a standalone reader).
 */
import { createPublicClient, type Hex, http, type PublicClient } from "viem";
import type { NetworkConfig } from "../core/network/types.js";
import type { RecordedVenueReading } from "../core/reserves/por/venue-read.js";
import type { MarketPeer } from "../core/yield/apy-market-context.js";
import type { BoardVault } from "../core/yield/honesty-index-schema.js";
import { ApiError, badRequest } from "./http/errors.js";
import { blockParam } from "./http/query-params.js";
import { hyperliquidClient, type VenueClient } from "./io/hyperliquid.js";
import { type IndexedHead, indexedHead, type ReadDb } from "./io/indexed-reads.js";
import { coalesce, memo, perObject } from "./io/memo.js";

export type ReportContext = {
  network: NetworkConfig;
  db: ReadDb;
  base: PublicClient;
  ethereum: PublicClient;
  venue: VenueClient | null;
  /** Public base URL of the unpaid site, for canonicalEndpoint fields. */
  siteUrl: string;
  /** The venue is read at most this often (seconds; 0: on every request), and the age is published. */
  venueMaxAgeSeconds: number;
  /** One read of the indexed head (and of a block's hash) serves every report for this long (ms; 0: only concurrent requests share it). */
  headFreshMs: number;
  /** Told how long each report build took (GET /metrics' kusd_report_build_seconds). */
  observeBuild?: (report: string, seconds: number) => void;
  /** The venue readings signed statements used: a past block's report reconciles against the nearest (absent: none kept). */
  venueRecords?: VenueRecords;
  /** Peers shown beside our yield in /api/apy's marketContext (KUSD_MARKET_PEERS). */
  marketPeers: MarketPeer[];
  /** Vaults on the /api/honesty-index board after ours (KUSD_HONESTY_PEERS). */
  honestyPeers: BoardVault[];
};

export type VenueRecords = { atOrBefore(blockNumber: bigint): Promise<RecordedVenueReading | null> };

/**
 * 250 ms: under load the head was most of a report's cost (on PGlite every query syncs files);
 * Base makes a block every 2 s, so a report at the head trails the indexer by at most this.
 */
export const DEFAULT_HEAD_FRESH_MS = 250;

const keptHeads = perObject((ctx: ReportContext) => memo<IndexedHead | null>({ max: 1, ttlMs: ctx.headFreshMs }));

/** The indexed head as reports see it: one read per `headFreshMs` (0: indexedHead's own sharing of concurrent reads). */
export function reportHead(ctx: ReportContext): Promise<IndexedHead | null> {
  if (ctx.headFreshMs === 0) return indexedHead(ctx.db, "base");
  return keptHeads(ctx)("base", () => indexedHead(ctx.db, "base"));
}

const keptHashes = perObject((ctx: ReportContext) =>
  ctx.headFreshMs > 0
    ? memo<Hex | null>({ max: 256, ttlMs: ctx.headFreshMs, keep: (h) => h !== null })
    : coalesce<Hex | null>(),
);

/**
 * The hash of a report's block, read at most every `headFreshMs` (0: only requests that arrive
 * together share the read). Cached reports are keyed by block number and hash, so after a reorg
 * the same number is a different key and the old branch is not served longer than that. Null
 * when the read fails (and a failure is not kept).
 */
export function reportBlockHash(ctx: ReportContext, blockNumber: bigint): Promise<Hex | null> {
  return keptHashes(ctx)(String(blockNumber), () =>
    ctx.base.getBlock({ blockNumber }).then(
      (b) => b.hash,
      () => null,
    ),
  );
}

export const DEFAULT_VENUE_MAX_AGE_SECONDS = 5;

export function createReportContext(
  network: NetworkConfig,
  db: ReadDb,
  siteUrl: string,
  options: {
    venueMaxAgeSeconds?: number;
    headFreshMs?: number;
    observeBuild?: ReportContext["observeBuild"];
    venueRecords?: VenueRecords;
    marketPeers?: MarketPeer[];
    honestyPeers?: BoardVault[];
  } = {},
): ReportContext {
  // Batched JSON-RPC: a report's ~80 pinned reads go out as a few HTTP requests. No retries:
  // a read that fails is reported as unknown at once rather than slowing every request.
  const client = (url: string) =>
    createPublicClient({
      transport: http(url, { batch: { batchSize: 100 }, retryCount: 0, timeout: 10_000 }),
    }) as PublicClient;
  return {
    network,
    db,
    base: client(network.reporting.readRpc.base),
    ethereum: client(network.reporting.readRpc.ethereum),
    venue: network.reporting.venue.url ? hyperliquidClient(network.reporting.venue.url) : null,
    siteUrl,
    venueMaxAgeSeconds: options.venueMaxAgeSeconds ?? DEFAULT_VENUE_MAX_AGE_SECONDS,
    headFreshMs: options.headFreshMs ?? DEFAULT_HEAD_FRESH_MS,
    ...(options.observeBuild && { observeBuild: options.observeBuild }),
    ...(options.venueRecords && { venueRecords: options.venueRecords }),
    marketPeers: options.marketPeers ?? [],
    honestyPeers: options.honestyPeers ?? [],
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
    throw new ApiError(503, "not_indexed_yet", "the indexer has not reached the protocol's first block yet");
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
  if (blockNumber > head.blockNumber) {
    throw new ApiError(422, "block_not_indexed", `block ${blockNumber} is past the indexed head ${head.blockNumber}`, {
      block: requested,
      indexedHead: Number(head.blockNumber),
    });
  }
  return { blockNumber, atHead: blockNumber === head.blockNumber, head };
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
  const [head, chain] = await Promise.all([
    indexedHead(ctx.db, "base"),
    ctx.base.getBlockNumber({ cacheTime: 0 }).catch(() => null),
  ]);
  const indexed = head?.blockNumber ?? null;
  return { caughtUp: indexed !== null && chain !== null && chain - indexed <= CAUGHT_UP_LAG, indexed, chain };
}
