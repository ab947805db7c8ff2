/**
 * Every cache the reports keep, built in one place for one report context (createReportContext,
 * called by the composition root, services.ts): what is kept, how many, for how long, and what is
 * never kept. A report's service reads its own cache from `ctx.caches`; a cache lives and dies with
 * its context.
 *
 * Two kinds (io/memo.ts): `memo` keeps results in an LRU under a key that cannot change meaning
 * (a block number with its hash, so a reorg is another key); `coalesce` keeps nothing and only
 * lets requests that arrive together share one read. The limits come from the configuration
 * (cache-limits.ts); what each holds is on /metrics (`sizes`).
 */
import type { ChainSnapshot, HistoryRows, PsmStatus } from "@kusd/core";
import { type CacheLimits, DEFAULT_CACHE_LIMITS } from "./cache-limits.js";
import type { CacheSize } from "./io/cache-sizes.js";
import type { IndexedHead } from "./io/indexed-reads.js";
import { coalesce, type Memo, memo } from "./io/memo.js";
import type {
  BlockHeader,
  PorHistory,
  PorLiveRoles,
  RenderedApy,
  RenderedPor,
  RenderedStats,
  RiskChainPart,
  VenueNow,
} from "./report-values.js";

/**
 * The indexed head is a database read, no RPC call: read at most every 100 ms, so a report at the
 * head follows the indexer within that (issue 41: /api/stats at a new block inside half a second),
 * and a thousand requests a second still make ten reads.
 */
export const INDEXED_HEAD_FRESH_MS = 100;

/** A cache's one operation: the value under `key`, built once however many ask. */
export type Keeper<V> = (key: string, build: () => Promise<V>) => Promise<V>;

export type ReportCaches = {
  /** The indexed head, one read per INDEXED_HEAD_FRESH_MS (unused at headFreshMs 0: every request reads it). */
  head: Memo<IndexedHead | null>;
  /** A report block's header; a failed read is not kept. */
  headers: Keeper<BlockHeader | null>;
  /** The RPC's head (eth_blockNumber); a failed read is not kept. */
  rpcHead: Keeper<bigint | null>;
  /** The venue now, one read per `venueMaxAgeSeconds` (0: every request); a failed read is not kept. */
  venueNow: Keeper<VenueNow>;
  por: {
    /** holdsRole of each PSM, read live like the header. */
    liveRoles: Keeper<PorLiveRoles>;
    /** A block's chain snapshot: only one whose every read landed (a failed read is retried). */
    snapshots: Memo<ChainSnapshot>;
    /** A block's indexed redemptions and burns. */
    history: Memo<PorHistory>;
    /** A block's report and its bytes, when no read failed. */
    reports: Memo<RenderedPor>;
  };
  stats: Memo<RenderedStats>;
  /** A block's mint gates, when no read failed. */
  psmStatus: Memo<PsmStatus>;
  /** The indexed rows behind history series, per toBlock. */
  historyRows: Memo<HistoryRows>;
  /** The on-chain part of a block's risk status, when no read failed. */
  riskChain: Memo<RiskChainPart>;
  /** The APY report, rebuilt at most every `venueMaxAgeSeconds` for one indexed head. */
  apy: Memo<RenderedApy>;
  /** What each cache that keeps anything holds now, by its name on /metrics. */
  sizes(): CacheSize[];
};

/** The bytes a rendered report holds: its JSON text and that text's UTF-8 bytes (the parsed report beside them is not weighed). */
const renderedBytes = (r: { rendered: { body: string; bytes: Uint8Array } }) =>
  r.rendered.body.length + r.rendered.bytes.byteLength;

export function createReportCaches(o: {
  headFreshMs: number;
  venueMaxAgeSeconds: number;
  limits?: CacheLimits;
}): ReportCaches {
  const limits = o.limits ?? DEFAULT_CACHE_LIMITS;
  const kept: [string, Memo<unknown>][] = [];
  const named = <V>(name: string, m: Memo<V>): Memo<V> => {
    kept.push([name, m as Memo<unknown>]);
    return m;
  };
  // What is read per request rather than per block is kept `headFreshMs` (0: only requests that
  // arrive together share a read), and a failed read serves nobody after it.
  const live = <V>(name: string, max: number, keep: (v: V) => boolean): Keeper<V> =>
    o.headFreshMs > 0 ? named(name, memo<V>({ max, ttlMs: o.headFreshMs, keep })) : coalesce<V>();
  const venueTtlMs = o.venueMaxAgeSeconds * 1000;
  const blocks = limits.blocks;
  const rendered = <V extends { rendered: { body: string; bytes: Uint8Array } }>(
    name: string,
    extra: { ttlMs?: number; keep?: (v: V) => boolean } = {},
  ) => named(name, memo<V>({ maxBytes: limits.reportBytes, sizeOf: renderedBytes, ...extra }));
  return {
    head: named(
      "report_head",
      memo<IndexedHead | null>({ max: 1, ttlMs: Math.min(o.headFreshMs, INDEXED_HEAD_FRESH_MS) }),
    ),
    headers: live<BlockHeader | null>("block_headers", limits.headers, (h) => h !== null),
    rpcHead: live<bigint | null>("rpc_head", 1, (h) => h !== null),
    venueNow:
      o.venueMaxAgeSeconds > 0
        ? named("venue_now", memo<VenueNow>({ max: 1, ttlMs: venueTtlMs, keep: (v) => v.state !== null }))
        : (_key, build) => build(),
    por: {
      liveRoles: live<PorLiveRoles>("por_live_roles", blocks, (r) => r.failedReads.length === 0),
      snapshots: named("por_snapshots", memo<ChainSnapshot>({ max: blocks, keep: (s) => s.failedReads.length === 0 })),
      history: named("por_history", memo<PorHistory>({ max: blocks })),
      reports: rendered<RenderedPor>("por_reports", {
        keep: (r) => r.report.attestation.failedReads.length === 0,
      }),
    },
    stats: rendered<RenderedStats>("stats_reports"),
    psmStatus: named("psm_status", memo<PsmStatus>({ max: blocks, keep: (v) => v.failedReads.length === 0 })),
    historyRows: named("history_rows", memo<HistoryRows>({ max: limits.historyBlocks })),
    riskChain: named("risk_chain", memo<RiskChainPart>({ max: blocks, keep: (v) => v.failedReads.length === 0 })),
    apy: rendered<RenderedApy>("apy_reports", { ttlMs: venueTtlMs }),
    sizes: () => kept.map(([name, m]) => m.sizeAs(name)),
  };
}
