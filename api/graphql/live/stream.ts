/**
 * One live stream over indexed rows, shared by every subscription: poll the rows between the
 * last final block and the indexed head, emit each new one as DETECTED, and emit RETRACTED for a
 * row this stream emitted that is no longer there (a reorg rolled it back: Ponder deletes the
 * rows of the blocks it reverts). Rows older than `reorgWindow` blocks below the head are taken
 * as final and forgotten, so memory stays bounded by the window.
 *
 * No database here: a `LiveSource` says how to read the rows, so the logic is tested as is.
 */
import { abortable, pause } from "./abortable.js";

export type LiveEventKind = "DETECTED" | "RETRACTED";
export type LiveEvent<T> = { kind: LiveEventKind; item: T };

/** Rows with `fromBlock <= block <= toBlock` in chain order, at most `limit`. */
export type BlockRange = { fromBlock: bigint; toBlock: bigint; limit: number };

export type LiveSource<T> = {
  /** The newest indexed block; null before the indexer has a checkpoint. */
  head(): Promise<bigint | null>;
  /**
   * Resolves once the indexed head is no longer `head` (or `signal` aborts): the stream reads
   * again then rather than at its next poll. Without it the stream polls every `pollMs`.
   */
  beyond?(head: bigint | null, signal: AbortSignal): Promise<unknown>;
  /** The rows the subscription wants (its filters applied), ordered by block first. */
  rows(range: BlockRange): Promise<T[]>;
  id(row: T): string;
  block(row: T): bigint;
};

export type LiveOptions = {
  /**
   * Replay from this block (inclusive). Unset: rows indexed after the stream starts, and
   * RETRACTED also for a row indexed before it within the window (a client may have read it).
   */
  fromBlock?: bigint;
  pollMs?: number;
  /** How deep a reorg may reach: rows at least this many blocks below the head are final. */
  reorgWindow?: bigint;
  /** Rows per query: a replay from an old block reads in pages of complete blocks. */
  pageSize?: number;
  signal?: AbortSignal;
};

/** What a stream remembers: below `floor` everything is final; `known` is what it emitted above. */
export type LiveState<T> = { floor: bigint; known: Map<string, T> };

/** One page of a poll: every wanted row of blocks `fromBlock..throughBlock`, with the head then. */
export type Scan<T> = { fromBlock: bigint; throughBlock: bigint; head: bigint; rows: T[] };

export const DEFAULTS = { pollMs: 1_000, reorgWindow: 64n, pageSize: 1_000 } as const;

/**
 * More rows than any block holds (a log costs at least 375 gas: 400,000 logs would take 150M gas),
 * for reading one block whole when it alone overflows a page.
 */
const WHOLE_BLOCK = 1_000_000;

/** A row is the same row only in the same block: a transaction re-included elsewhere is retracted and detected again. */
const keyOf = <T>(source: Pick<LiveSource<T>, "id" | "block">, row: T) => `${source.id(row)}@${source.block(row)}`;

/**
 * Folds one page into the state and says what changed: RETRACTED for an emitted row of the
 * page's blocks that the page lacks, or of a block above the head (the head went back), then
 * DETECTED for each row not emitted before, in the page's order. Rows that became final are
 * forgotten. Mutates `state`.
 */
export function reconcile<T>(
  state: LiveState<T>,
  scan: Scan<T>,
  source: Pick<LiveSource<T>, "id" | "block">,
  reorgWindow: bigint = DEFAULTS.reorgWindow,
): LiveEvent<T>[] {
  const events: LiveEvent<T>[] = [];
  const seen = new Set(scan.rows.map((r) => keyOf(source, r)));
  for (const [key, row] of state.known) {
    const block = source.block(row);
    const scanned = block >= scan.fromBlock && block <= scan.throughBlock;
    if ((scanned && !seen.has(key)) || block > scan.head) {
      state.known.delete(key);
      events.push({ kind: "RETRACTED", item: row });
    }
  }
  for (const row of scan.rows) {
    const key = keyOf(source, row);
    if (state.known.has(key)) continue;
    state.known.set(key, row);
    events.push({ kind: "DETECTED", item: row });
  }
  const final = min(scan.throughBlock, scan.head - reorgWindow);
  if (final > state.floor) {
    state.floor = final;
    for (const [key, row] of state.known) if (source.block(row) <= final) state.known.delete(key);
  }
  return events;
}

/**
 * Reads blocks `fromBlock..head` in pages of whole blocks: when a page is full, the blocks below
 * its last row's block are complete and the page ends there (a block that alone overflows is
 * read whole).
 */
export async function scanPage<T>(
  source: LiveSource<T>,
  fromBlock: bigint,
  head: bigint,
  pageSize: number = DEFAULTS.pageSize,
): Promise<Scan<T>> {
  if (fromBlock > head) return { fromBlock, throughBlock: head, head, rows: [] };
  const rows = await source.rows({ fromBlock, toBlock: head, limit: pageSize + 1 });
  const beyond = rows[pageSize];
  if (beyond === undefined) return { fromBlock, throughBlock: head, head, rows };
  const cut = source.block(beyond);
  if (cut > fromBlock) {
    return { fromBlock, throughBlock: cut - 1n, head, rows: rows.filter((r) => source.block(r) < cut) };
  }
  const whole = await source.rows({ fromBlock, toBlock: fromBlock, limit: WHOLE_BLOCK });
  return { fromBlock, throughBlock: fromBlock, head, rows: whole };
}

/** The stream: DETECTED and RETRACTED events until `return()` or `signal` ends it. */
export function liveStream<T>(source: LiveSource<T>, o: LiveOptions = {}): AsyncIterableIterator<LiveEvent<T>> {
  return abortable((signal) => poll(source, o, signal), o.signal);
}

async function* poll<T>(source: LiveSource<T>, o: LiveOptions, signal: AbortSignal): AsyncGenerator<LiveEvent<T>> {
  const pollMs = o.pollMs ?? DEFAULTS.pollMs;
  const window = o.reorgWindow ?? DEFAULTS.reorgWindow;
  let state: LiveState<T> | null = o.fromBlock !== undefined ? { floor: o.fromBlock - 1n, known: new Map() } : null;
  while (!signal.aborted) {
    const head = await source.head();
    // Starting from now (at the first head there is): the rows already indexed within the window
    // are remembered without being emitted, so a reorg that removes one is still told.
    const quiet = state === null && head !== null;
    if (head !== null) state ??= { floor: head - window, known: new Map() };
    // Every poll reads all blocks above the floor, so a reorg anywhere in the window shows.
    for (let from = (state?.floor ?? 0n) + 1n; state && head !== null && !signal.aborted; ) {
      const scan = await scanPage(source, from, head, o.pageSize);
      const events = reconcile(state, scan, source, window);
      if (!quiet) yield* events;
      if (scan.throughBlock >= head) break;
      from = scan.throughBlock + 1n;
    }
    await nextPoll(source, head, pollMs, signal);
  }
}

/**
 * Until the indexed head moves (when the source can tell) or `pollMs` passes: the timer still
 * catches what leaves the head where it was (a reorg to the same height).
 */
async function nextPoll<T>(source: LiveSource<T>, head: bigint | null, pollMs: number, signal: AbortSignal) {
  if (!source.beyond) return pause(pollMs, signal);
  const wait = new AbortController();
  const stop = () => wait.abort();
  signal.addEventListener("abort", stop, { once: true });
  try {
    await Promise.race([pause(pollMs, wait.signal), source.beyond(head, wait.signal)]);
  } finally {
    wait.abort();
    signal.removeEventListener("abort", stop);
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
