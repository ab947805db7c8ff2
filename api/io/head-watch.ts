/**
 * The indexed head as it moves, for whatever follows it (the GraphQL live streams, the head
 * event stream the monitor listens to): one reader of Ponder's checkpoint per database, every
 * `everyMs` while anyone waits and not at all otherwise, so a waiter wakes within that of a
 * block being indexed instead of at its own next poll (issue 41: alerts inside one Base block).
 */
import { type IndexedHead, indexedHead, type ReadDb } from "./indexed-reads.js";
import { perObject } from "./memo.js";

export const HEAD_WATCH_MS = 50;

type Waiter = { past: bigint | null; wake: (head: IndexedHead | null) => void };

export type HeadWatch = {
  /**
   * Resolves with the indexed head once it is not `past` (at once if it already is not), or
   * with null when `signal` aborts first.
   */
  beyond(past: bigint | null, signal?: AbortSignal): Promise<IndexedHead | null>;
};

export function createHeadWatch(read: () => Promise<IndexedHead | null>, everyMs = HEAD_WATCH_MS): HeadWatch {
  const waiters = new Set<Waiter>();
  // The next read, while anyone waits: cancelled when the last waiter leaves, so nothing is read
  // for a stream that has ended.
  let next: NodeJS.Timeout | null = null;
  let reading = false;
  const tick = async () => {
    next = null;
    reading = true;
    const head = await read().catch(() => undefined);
    reading = false;
    if (head !== undefined) {
      const number = head?.blockNumber ?? null;
      for (const w of [...waiters]) if (number !== w.past) w.wake(head);
    }
    if (waiters.size > 0) next = setTimeout(tick, everyMs);
  };
  const leave = (w: Waiter) => {
    waiters.delete(w);
    if (waiters.size === 0 && next) {
      clearTimeout(next);
      next = null;
    }
  };
  return {
    beyond(past, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve(null);
        const w: Waiter = {
          past,
          wake: (head) => {
            leave(w);
            signal?.removeEventListener("abort", onAbort);
            resolve(head);
          },
        };
        const onAbort = () => w.wake(null);
        signal?.addEventListener("abort", onAbort, { once: true });
        waiters.add(w);
        if (!next && !reading) next = setTimeout(tick, 0);
      });
    },
  };
}

/** The process's watch over one database's base head. */
export const headWatchOf = perObject((db: ReadDb) => createHeadWatch(() => indexedHead(db, "base")));
