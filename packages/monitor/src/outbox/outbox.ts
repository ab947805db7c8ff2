/**
 * The monitor's outbox: one durable queue per destination under the state directory
 * (`<dir>/<destination id>.json`). The poll loop hands every message to `enqueue`, which writes
 * it to each destination that takes its kind before returning, so the monitor's own state may
 * then move past it: a crash after that point loses nothing, a crash before it re-detects the
 * item and enqueue drops what a queue already has. Delivery runs in a loop per destination.
 */
import { join } from "node:path";
import type { MonitorMessage } from "../deliver.js";
import type { AlertView, Sink } from "../sinks/sink.js";
import { alertIdOf, takes } from "../state/routing.js";
import type { QueueStats } from "../state/store.js";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./backoff.js";
import { DestinationQueue, type OutboxEvent, type QueueClock, realClock } from "./destination-queue.js";

export type Route = {
  sink: Sink;
  /** Message kinds this destination takes; null: all. */
  kinds: string[] | null;
};

export type OutboxOptions = {
  /** Where the queues live; null: in memory only. */
  dir: string | null;
  routes: Route[];
  view: (m: MonitorMessage) => AlertView;
  policy?: BackoffPolicy;
  clock?: QueueClock;
  onEvent?: (e: OutboxEvent) => void;
};

/** A destination id as a file name: ids are free text in the configuration. */
export const queueFileName = (id: string) => `${id.replace(/[^A-Za-z0-9._-]/g, "_")}.json`;

export class Outbox {
  readonly queues: Array<{ queue: DestinationQueue; kinds: string[] | null }>;

  constructor(o: OutboxOptions) {
    this.queues = o.routes.map((r) => ({
      kinds: r.kinds,
      queue: new DestinationQueue({
        sink: r.sink,
        path: o.dir === null ? null : join(o.dir, queueFileName(r.sink.id)),
        policy: o.policy ?? DEFAULT_BACKOFF,
        clock: o.clock ?? realClock,
        view: o.view,
        onEvent: o.onEvent,
      }),
    }));
  }

  /**
   * Queues a message for every destination that takes its kind. A retraction or resolution goes
   * exactly where its alert went: the destinations that queued (or delivered) that alert.
   */
  enqueue(m: MonitorMessage): number {
    let n = 0;
    for (const { queue, kinds } of this.queues) if (takes(m, kinds, queue.has(alertIdOf(m))) && queue.enqueue(m)) n++;
    return n;
  }

  /** Runs every destination's loop until the signal aborts. */
  run(signal: AbortSignal): Promise<void> {
    return Promise.all(this.queues.map(({ queue }) => queue.run(signal))).then(() => {});
  }

  async drainOnce(): Promise<void> {
    await Promise.all(this.queues.map(({ queue }) => queue.drainOnce()));
  }

  stats(): QueueStats[] {
    return this.queues.map(({ queue }) => ({ destination: queue.id, ...queue.stats() }));
  }

  queued(): number {
    return this.stats().reduce((n, s) => n + s.queued, 0);
  }
}
