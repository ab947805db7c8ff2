/**
 * One destination's outbox on disk: a single JSON file, rewritten atomically (temp file, fsync,
 * rename, fsync of the directory) after every change, so a crash (kill -9, power loss) leaves
 * either the previous queue or the new one, never a torn file.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { MonitorMessage } from "../deliver.js";

export type QueuedMessage = {
  deliveryId: string;
  message: MonitorMessage;
  /** ms since the epoch: when it entered the queue (for the oldest-undelivered metric). */
  enqueuedAt: number;
  /** Failed attempts so far. */
  failures: number;
  /** ms since the epoch: not before this. */
  notBefore: number;
  lastError?: string;
};

export type QueueFile = {
  version: 1;
  pending: QueuedMessage[];
  /** Delivery ids already delivered (most recent last, bounded): a re-enqueue of one is dropped. */
  delivered: string[];
  /** Refused by the destination (retryable false): kept for the operator, never retried. */
  dead: Array<QueuedMessage & { deadAt: number }>;
};

/** How many delivered ids are remembered; far more than a reorg window's alerts. */
export const DELIVERED_MEMORY = 10_000;

export const emptyQueue = (): QueueFile => ({ version: 1, pending: [], delivered: [], dead: [] });

export function readQueueFile(path: string): QueueFile {
  if (!existsSync(path)) return emptyQueue();
  const q = JSON.parse(readFileSync(path, "utf8")) as QueueFile;
  return { ...emptyQueue(), ...q };
}

export function writeQueueFile(path: string, q: QueueFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, JSON.stringify(q));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  // The rename itself is durable only once the directory entry is flushed.
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
