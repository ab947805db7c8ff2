/**
 * Where an indexer's time went, from Ponder's own Prometheus metrics (`/metrics`): total time in
 * each indexing function, database methods (flushes, commits), indexing-cache hits and misses,
 * raw SQL in handlers, and RPC requests by method. Read once, after the backfill.
 */

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Parses the Prometheus text format's samples (comments and HELP/TYPE lines skipped). */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of match[2]?.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sums `name`'s samples grouped by the given labels, largest first. */
export function sumBy(samples: Sample[], name: string, labels: string[]): Array<{ key: string; value: number }> {
  const totals = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = labels.map((l) => s.labels[l] ?? "").join(" ");
    totals.set(key, (totals.get(key) ?? 0) + s.value);
  }
  return [...totals].map(([key, value]) => ({ key, value })).sort((a, b) => b.value - a.value);
}

export type PonderBreakdown = {
  handlersMs: Array<{ key: string; value: number }>;
  databaseMs: Array<{ key: string; value: number }>;
  cache: Array<{ key: string; value: number }>;
  /** The indexing cache's own database time: flushes, prefetches and misses, per table. */
  cacheQueriesMs: Array<{ key: string; value: number }>;
  /** How many of each: a flush is one COPY (or UPDATE) per table per batch of events, whatever its rows. */
  cacheQueryCount: Array<{ key: string; value: number }>;
  databaseCount: Array<{ key: string; value: number }>;
  rawSqlMs: number;
  rawSqlCount: number;
  rpcCalls: Array<{ key: string; value: number }>;
  handlerCalls: Array<{ key: string; value: number }>;
  indexingRpc: Array<{ key: string; value: number }>;
  /**
   * The backfill loop's own split (ms): "extract" is the indexing waiting on the sync for events,
   * "transform" the indexing itself; the transform's steps are the prefetch, the handlers ("index"),
   * the flush ("load"), the checkpoint write ("finalize") and the transaction's commit.
   */
  loop: Array<{ key: string; value: number }>;
  steps: Array<{ key: string; value: number }>;
};

export function ponderBreakdown(text: string): PonderBreakdown {
  const samples = parseSamples(text);
  const rawSql = sumBy(samples, "ponder_indexing_store_raw_sql_duration_sum", []);
  const rawCount = sumBy(samples, "ponder_indexing_store_raw_sql_duration_count", []);
  return {
    handlersMs: sumBy(samples, "ponder_indexing_function_duration_sum", ["event"]),
    databaseMs: sumBy(samples, "ponder_database_method_duration_sum", ["method"]),
    cache: sumBy(samples, "ponder_indexing_cache_requests_total", ["table", "type"]).filter((c) => c.value > 0),
    cacheQueriesMs: sumBy(samples, "ponder_indexing_cache_query_duration_sum", ["table", "method"]),
    cacheQueryCount: sumBy(samples, "ponder_indexing_cache_query_duration_count", ["table", "method"]),
    databaseCount: sumBy(samples, "ponder_database_method_duration_count", ["method"]),
    rawSqlMs: rawSql[0]?.value ?? 0,
    rawSqlCount: rawCount[0]?.value ?? 0,
    rpcCalls: sumBy(samples, "ponder_rpc_request_duration_count", ["method"]),
    handlerCalls: sumBy(samples, "ponder_indexing_function_duration_count", ["event"]),
    indexingRpc: sumBy(samples, "ponder_indexing_rpc_requests_total", ["method", "type"]).filter((c) => c.value > 0),
    loop: sumBy(samples, "ponder_historical_concurrency_group_duration", ["group"]),
    steps: sumBy(samples, "ponder_historical_transform_duration", ["step"]),
  };
}

/** A few lines for the bench's output: the top entries of each part. */
export function formatBreakdown(label: string, b: PonderBreakdown, top = 6): string {
  const list = (rows: Array<{ key: string; value: number }>, unit: string, n = top) =>
    rows
      .slice(0, n)
      .map((r) => `${r.key || "-"} ${r.value.toFixed(0)}${unit}`)
      .join(", ");
  return [
    `${label}:`,
    `  backfill loop (ms):  ${list(b.loop, "")}; transform: ${list(b.steps, "")}`,
    `  handlers (ms):       ${list(b.handlersMs, "")}`,
    // Twice as many: the sync's inserts come first, the indexing cache's flushes and prefetches after.
    `  database (ms):       ${list(b.databaseMs, "", top * 2)}`,
    `  cache queries (ms):  ${list(b.cacheQueriesMs, "", top * 2)}`,
    `  cache queries (n):   ${list(b.cacheQueryCount, "", top * 2)}`,
    `  database calls (n):  ${list(b.databaseCount, "", top * 2)}`,
    `  raw SQL in handlers: ${b.rawSqlCount} queries, ${b.rawSqlMs.toFixed(0)} ms`,
    // A "prefetch" or "miss" is a table evicted from the indexing cache: its lookups go to the database.
    `  cache:               ${list(b.cache, "", top * 2)}`,
    `  handler calls:       ${list(b.handlerCalls, "")}`,
    `  rpc calls:           ${list(b.rpcCalls, "")}`,
    `  handlers' rpc reads: ${list(b.indexingRpc, "")}`,
  ].join("\n");
}
