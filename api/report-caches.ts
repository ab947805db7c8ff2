/**
 * Every cache the reports keep, built in one place for one report context (createReportContext,
 * called by the composition root, services.ts): what is kept, how many, for how long, and what is
 * never kept. A report's service reads its own cache from `ctx.caches`; a cache lives and dies with
 * its context.
 *
 * Two kinds (io/memo.ts): `memo` keeps results in an LRU under a key that cannot change meaning
 * (a block number with its hash, so a reorg is another key); `coalesce` keeps nothing and only
 * lets requests that arrive together share one read.
 */
import type { ChainSnapshot, HistoryRows, PsmStatus } from "@kusd/core";
import type { BlockHeader } from "./context.js";
import type { IndexedHead } from "./io/indexed-reads.js";
import { coalesce, type Memo, memo } from "./io/memo.js";
import type { VenueNow } from "./io/venue-now.js";
import type { PorHistory, PorLiveRoles, RenderedPor } from "./reserves/por-service.js";
import type { RenderedStats } from "./reserves/stats-service.js";
import type { RiskChainPart } from "./risk/risk-service.js";
import type { RenderedApy } from "./yield/apy-service.js";

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
};

export function createReportCaches(o: { headFreshMs: number; venueMaxAgeSeconds: number }): ReportCaches {
  // What is read per request rather than per block is kept `headFreshMs` (0: only requests that
  // arrive together share a read), and a failed read serves nobody after it.
  const live = <V>(max: number, keep: (v: V) => boolean): Keeper<V> =>
    o.headFreshMs > 0 ? memo<V>({ max, ttlMs: o.headFreshMs, keep }) : coalesce<V>();
  const venueTtlMs = o.venueMaxAgeSeconds * 1000;
  return {
    head: memo<IndexedHead | null>({ max: 1, ttlMs: Math.min(o.headFreshMs, INDEXED_HEAD_FRESH_MS) }),
    headers: live<BlockHeader | null>(256, (h) => h !== null),
    rpcHead: live<bigint | null>(1, (h) => h !== null),
    venueNow:
      o.venueMaxAgeSeconds > 0
        ? memo<VenueNow>({ max: 1, ttlMs: venueTtlMs, keep: (v) => v.state !== null })
        : (_key, build) => build(),
    por: {
      liveRoles: live<PorLiveRoles>(16, (r) => r.failedReads.length === 0),
      snapshots: memo<ChainSnapshot>({ max: 32, keep: (s) => s.failedReads.length === 0 }),
      history: memo<PorHistory>({ max: 32 }),
      reports: memo<RenderedPor>({ max: 64, keep: (r) => r.report.attestation.failedReads.length === 0 }),
    },
    stats: memo<RenderedStats>({ max: 64 }),
    psmStatus: memo<PsmStatus>({ max: 32, keep: (v) => v.failedReads.length === 0 }),
    historyRows: memo<HistoryRows>({ max: 8 }),
    riskChain: memo<RiskChainPart>({ max: 16, keep: (v) => v.failedReads.length === 0 }),
    apy: memo<RenderedApy>({ max: 4, ttlMs: venueTtlMs }),
  };
}
