/**
 * Where a monitor keeps its state and its outbox. One store per monitor process: a file and a
 * queue file per destination (`file-store.ts`), or PostgreSQL shared by every monitor of a group
 * (`postgres-store.ts`). A poll reads the state, computes the messages and the next state, and
 * commits both at once against the version it read: a commit that lost the race to another
 * monitor of the group changes nothing, and the next poll starts from the winner's state.
 */
import type { MonitorMessage } from "../deliver.js";
import type { MonitorState, Versioned } from "./monitor-state.js";

export type QueueStats = {
  destination: string;
  /** Messages not yet accepted by the destination (the group's, with a shared store). */
  queued: number;
  dead: number;
  oldestAgeMs: number;
};

export interface MonitorStore {
  /** "file" or "postgres": named in logs and metrics. */
  readonly kind: "file" | "postgres";
  /** The state as last committed; null before the first run. */
  load(): Promise<Versioned | null>;
  /** The first run's state, unless another monitor of the group made one first (then that one). */
  create(state: MonitorState): Promise<Versioned>;
  /**
   * Queues `messages` for their destinations and moves the state to `next`, all or nothing.
   * Returns the new version, or null when the state moved since `base` (another monitor polled).
   */
  commit(base: Versioned, messages: MonitorMessage[], next: MonitorState): Promise<Versioned | null>;
  /** Runs every destination's delivery loop until the signal aborts. */
  run(signal: AbortSignal): Promise<void>;
  /** `--once`: one attempt at everything due, in order. */
  drainOnce(): Promise<void>;
  stats(): Promise<QueueStats[]>;
  close(): Promise<void>;
}
