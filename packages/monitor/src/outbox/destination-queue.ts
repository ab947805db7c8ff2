/**
 * One destination's durable queue and the loop that drains it. Messages are delivered in the
 * order they were queued; a failure the destination may recover from holds the head and is
 * retried with capped, jittered backoff for as long as it takes (a Retry-After is honoured); a
 * refusal (retryable false) is dead-lettered and the queue moves on. Each destination has its own
 * loop, so one that is down delays nobody else, and the poll loop only ever appends.
 */
import { deliveryId, type MonitorMessage } from "../deliver.js";
import type { AlertView, Sink } from "../sinks/sink.js";
import { type BackoffPolicy, backoffDelay } from "./backoff.js";
import { DELIVERED_MEMORY, emptyQueue, type QueueFile, readQueueFile, writeQueueFile } from "./queue-file.js";

export type OutboxEvent =
  | { type: "delivered"; destination: string; kind: string; deliveryId: string }
  | { type: "retried"; destination: string; kind: string; deliveryId: string; error: string; delayMs: number }
  | { type: "dead"; destination: string; kind: string; deliveryId: string; error: string };

export type QueueClock = {
  now: () => number;
  /** Resolves after ms, or early when the signal aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
};

export const realClock: QueueClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    }),
  random: Math.random,
};

export type DestinationQueueOptions = {
  sink: Sink;
  /** The queue's file; null keeps it in memory only (no state file was asked for). */
  path: string | null;
  policy: BackoffPolicy;
  clock: QueueClock;
  view: (m: MonitorMessage) => AlertView;
  onEvent?: (e: OutboxEvent) => void;
};

export type AttemptOutcome = "idle" | "waiting" | "delivered" | "retry" | "dead";

export class DestinationQueue {
  private q: QueueFile;
  private wake: (() => void) | null = null;

  constructor(private readonly o: DestinationQueueOptions) {
    this.q = o.path ? readQueueFile(o.path) : emptyQueue(); // resume: whatever a previous run left queued
  }

  get id() {
    return this.o.sink.id;
  }

  /** Queues a message unless this destination already has it (queued or delivered). Durable on return. */
  enqueue(message: MonitorMessage): boolean {
    const id = deliveryId(message);
    if (this.q.pending.some((p) => p.deliveryId === id) || this.q.delivered.includes(id)) return false;
    const now = this.o.clock.now();
    this.q.pending.push({ deliveryId: id, message, enqueuedAt: now, failures: 0, notBefore: now });
    this.save();
    this.wake?.();
    return true;
  }

  has(id: string) {
    return this.q.pending.some((p) => p.deliveryId === id) || this.q.delivered.includes(id);
  }

  stats() {
    const head = this.q.pending[0];
    return {
      queued: this.q.pending.length,
      dead: this.q.dead.length,
      oldestAgeMs: head ? Math.max(0, this.o.clock.now() - head.enqueuedAt) : 0,
    };
  }

  /** One delivery attempt of the head, if it is due. */
  async attempt(): Promise<AttemptOutcome> {
    const head = this.q.pending[0];
    if (!head) return "idle";
    if (head.notBefore > this.o.clock.now()) return "waiting";
    let result: Awaited<ReturnType<Sink["deliver"]>>;
    try {
      // No abort signal: a delivery under way finishes (each sink bounds its own time), so a
      // stop never leaves a message sent but not recorded as such.
      result = await this.o.sink.deliver(this.o.view(head.message));
    } catch (e) {
      result = { ok: false, retryable: true, error: (e as Error).message };
    }
    const kind = head.message.kind;
    const base = { destination: this.id, kind, deliveryId: head.deliveryId };
    if (result.ok) {
      this.q.pending.shift();
      this.q.delivered.push(head.deliveryId);
      if (this.q.delivered.length > DELIVERED_MEMORY)
        this.q.delivered.splice(0, this.q.delivered.length - DELIVERED_MEMORY);
      this.save();
      this.o.onEvent?.({ type: "delivered", ...base });
      return "delivered";
    }
    if (!result.retryable) {
      this.q.pending.shift();
      this.q.dead.push({ ...head, lastError: result.error, deadAt: this.o.clock.now() });
      this.save();
      this.o.onEvent?.({ type: "dead", ...base, error: result.error });
      return "dead";
    }
    head.failures += 1;
    head.lastError = result.error;
    const delayMs = backoffDelay(head.failures, this.o.policy, this.o.clock.random, result.retryAfterMs);
    head.notBefore = this.o.clock.now() + delayMs;
    this.save();
    this.o.onEvent?.({ type: "retried", ...base, error: result.error, delayMs });
    return "retry";
  }

  /** `--once`: every due message in order, stopping at the first that does not land. */
  async drainOnce(): Promise<void> {
    for (;;) {
      const head = this.q.pending[0];
      if (head) head.notBefore = Math.min(head.notBefore, this.o.clock.now());
      const r = await this.attempt();
      if (r !== "delivered" && r !== "dead") return;
    }
  }

  /** Drains until the signal aborts; sleeps until the head is due or something is queued. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const r = await this.attempt();
      if (r === "delivered" || r === "dead") continue;
      const head = this.q.pending[0];
      const waitMs = head ? head.notBefore - this.o.clock.now() : 60_000;
      if (waitMs <= 0) continue; // queued while the attempt found nothing: due now
      const woken = new AbortController();
      const stop = () => woken.abort();
      signal.addEventListener("abort", stop, { once: true });
      // A new message only matters to an empty queue (order: it goes behind the head).
      if (!head) this.wake = stop;
      await this.o.clock.sleep(waitMs, woken.signal);
      this.wake = null;
      signal.removeEventListener("abort", stop);
    }
  }

  private save() {
    if (this.o.path) writeQueueFile(this.o.path, this.q);
  }
}
