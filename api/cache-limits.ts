/**
 * The limit of every cache the API process keeps, from the configuration (KUSD_CACHE_*, parsed
 * once in packages/config/src/env.ts) with the defaults below, passed down by the composition root
 * (services.ts). A cache that holds one key by construction (the indexed head, the RPC's head,
 * the venue now) has no variable: it can hold nothing more.
 *
 * The defaults keep the indexer+API process under 1 GB with every cache full: with a 512 MB old
 * space, the process holds about 650–750 MB under load with its caches nearly empty
 * (docs/benchmarks.md), and these budgets add at most about 150 MB of bodies (the sum of the byte
 * limits, compressed bodies twice: the app's and Ponder's routes') plus the entry-bounded caches,
 * whose entries are a few kilobytes to a few hundred (a parsed GraphQL document of 2,000 tokens).
 */
import type { ServiceEnv } from "@kusd/config";
import { codePresenceSize, limitCodePresence } from "../packages/verify/src/index.js";
import type { CacheSize } from "./io/cache-sizes.js";

export { limitCodePresence };

export type CacheLimits = {
  /** Blocks whose report inputs each report keeps (chain snapshots, indexed redemptions, PSM gates, the risk's chain part, holdsRole). */
  blocks: number;
  /** Blocks whose indexed history rows the history series keep (each holds every row up to its block). */
  historyBlocks: number;
  /** Block headers (the reports' header reads, and the headers the indexer in the process announced). */
  headers: number;
  /** Bytes of rendered reports each report kind keeps (por, stats, apy). */
  reportBytes: number;
  /** Venue readings recorded by statements, as asked per block. */
  venueReadings: number;
  /** Bytes of each GraphQL response level: execution results (weighed as JSON) and HTTP answers. */
  graphqlBytes: number;
  /** Parsed GraphQL documents (and parse errors) kept by their text. */
  graphqlDocuments: number;
  /** Bytes of compressed bodies each compression middleware keeps. */
  compressedBytes: number;
  /** RPC endpoints whose code-presence knowledge is kept (the service's own, and those verify_report reads). */
  rpcUrls: number;
};

const MB = 1024 * 1024;

export const DEFAULT_CACHE_LIMITS: CacheLimits = {
  blocks: 32,
  historyBlocks: 8,
  headers: 256,
  reportBytes: 16 * MB,
  venueReadings: 256,
  graphqlBytes: 16 * MB,
  graphqlDocuments: 256,
  compressedBytes: 16 * MB,
  rpcUrls: 8,
};

export function cacheLimits(env: ServiceEnv): CacheLimits {
  const d = DEFAULT_CACHE_LIMITS;
  const mb = (v: number | undefined, otherwise: number) => (v === undefined ? otherwise : v * MB);
  return {
    blocks: env.KUSD_CACHE_BLOCKS ?? d.blocks,
    historyBlocks: env.KUSD_CACHE_HISTORY_BLOCKS ?? d.historyBlocks,
    headers: env.KUSD_CACHE_HEADERS ?? d.headers,
    reportBytes: mb(env.KUSD_CACHE_REPORTS_MB, d.reportBytes),
    venueReadings: env.KUSD_CACHE_VENUE_READINGS ?? d.venueReadings,
    graphqlBytes: mb(env.KUSD_CACHE_GRAPHQL_MB, d.graphqlBytes),
    graphqlDocuments: env.KUSD_CACHE_GRAPHQL_DOCUMENTS ?? d.graphqlDocuments,
    compressedBytes: mb(env.KUSD_CACHE_COMPRESSED_MB, d.compressedBytes),
    rpcUrls: env.KUSD_CACHE_RPC_URLS ?? d.rpcUrls,
  };
}

/** What the verifier's code-presence knowledge holds (packages/verify, one per process): RPC endpoints against the limit. */
export function codePresenceCache(): CacheSize {
  const { urls, limit } = codePresenceSize();
  return { cache: "code_presence", unit: "entries", limit, entries: urls, bytes: null };
}
