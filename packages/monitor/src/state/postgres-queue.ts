/**
 * One destination's delivery loop over the shared outbox. An attempt runs in one transaction: it
 * takes the destination's row lock (`FOR UPDATE SKIP LOCKED`: held by another monitor, it tries
 * again later), delivers the oldest pending message and marks it delivered, retried or dead. The
 * lock is the lease: it ends with the transaction, or with the connection when a monitor dies
 * (at once on a crash; a machine that vanished is cut by `idle_in_transaction_session_timeout`),
 * and then another monitor delivers the same message under the same delivery id.
 */
import type { Sql, TransactionSql } from "postgres";
import type { MonitorMessage } from "../deliver.js";
import { type BackoffPolicy, backoffDelay } from "../outbox/backoff.js";
import type { OutboxEvent, QueueClock } from "../outbox/destination-queue.js";
import type { AlertView, Sink } from "../sinks/sink.js";
import { SCHEMA } from "./postgres-schema.js";

export type PgAttempt =
  | { outcome: "delivered" | "dead" | "retry" | "idle" | "busy" }
  | { outcome: "waiting"; waitMs: number };

/** An attempt as its transaction returns it: the event is told only once committed. */
type Step = PgAttempt & { event?: OutboxEvent };

export type PgQueueOptions = {
  sql: Sql;
  group: string;
  instance: string;
  sink: Sink;
  view: (m: MonitorMessage) => AlertView;
  policy: BackoffPolicy;
  clock: QueueClock;
  onEvent?: (e: OutboxEvent) => void;
  /** A store operation failed (the database is unreachable), or worked again after failing. */
  onStoreError: (e: unknown) => void;
  onStoreOk: () => void;
};

/** How often a loop looks again when another monitor holds the destination, or nothing is queued. */
export const RECHECK_MS = 1_000;

export class PgDestinationQueue {
  /**
   * Delivered but not recorded (the database failed after the destination accepted): the next
   * attempt at this id records it without sending it again.
   */
  private readonly unrecorded = new Set<string>();
  private wake: (() => void) | null = null;

  constructor(private readonly o: PgQueueOptions) {}

  get id() {
    return this.o.sink.id;
  }

  /** Something was queued here by this process: an idle loop looks at once. */
  notify() {
    this.wake?.();
  }

  async attempt(dueNow = false): Promise<PgAttempt> {
    const { sql, group, instance } = this.o;
    const destination = this.id;
    return sql
      .begin(async (tx): Promise<Step> => {
        const lock = await tx`
        select 1 from ${tx(SCHEMA)}.destination
        where "group" = ${group} and destination = ${destination} for update skip locked`;
        if (lock.length === 0) return { outcome: "busy" };
        const [head] = await tx`
        select seq, delivery_id, kind, message,
               greatest(0, extract(epoch from (not_before - now())) * 1000)::float8 as wait_ms
        from ${tx(SCHEMA)}.outbox
        where "group" = ${group} and destination = ${destination} and status = 'pending'
        order by seq limit 1`;
        if (!head) {
          await this.prune(tx);
          return { outcome: "idle" };
        }
        if (!dueNow && head.wait_ms > 0) return { outcome: "waiting", waitMs: Math.ceil(head.wait_ms) };
        const message = head.message as MonitorMessage;
        const id = head.delivery_id as string;
        const base = { destination, kind: head.kind as string, deliveryId: id };
        let result: Awaited<ReturnType<Sink["deliver"]>>;
        if (this.unrecorded.has(id)) result = { ok: true };
        else {
          try {
            // No abort: a delivery under way finishes (each sink bounds its own time).
            result = await this.o.sink.deliver(this.o.view(message));
          } catch (e) {
            result = { ok: false, retryable: true, error: (e as Error).message };
          }
        }
        if (result.ok) {
          this.unrecorded.add(id); // until the update below is committed
          await tx`
          update ${tx(SCHEMA)}.outbox set status = 'delivered', done_at = now(), done_by = ${instance}
          where seq = ${head.seq}`;
          return { outcome: "delivered", event: { type: "delivered" as const, ...base } };
        }
        if (!result.retryable) {
          await tx`
          update ${tx(SCHEMA)}.outbox
          set status = 'dead', last_error = ${result.error}, failures = failures + 1, done_at = now(), done_by = ${instance}
          where seq = ${head.seq}`;
          return { outcome: "dead", event: { type: "dead" as const, ...base, error: result.error } };
        }
        const [row] = await tx`
        select failures + 1 as failures from ${tx(SCHEMA)}.outbox where seq = ${head.seq}`;
        const delayMs = backoffDelay(row?.failures ?? 1, this.o.policy, this.o.clock.random, result.retryAfterMs);
        await tx`
        update ${tx(SCHEMA)}.outbox
        set failures = failures + 1, last_error = ${result.error},
            not_before = now() + make_interval(secs => ${delayMs / 1000})
        where seq = ${head.seq}`;
        return { outcome: "retry", event: { type: "retried" as const, ...base, error: result.error, delayMs } };
      })
      .then(({ event, ...attempt }): PgAttempt => {
        // Committed: recorded for good, and only now told (a rolled-back attempt is tried again).
        if (event) {
          if (event.type === "delivered") this.unrecorded.delete(event.deliveryId);
          this.o.onEvent?.(event);
        }
        this.o.onStoreOk();
        return attempt as PgAttempt;
      });
  }

  /**
   * Delivered rows are kept a week, then deleted (at most one sweep an hour per loop): dropping a
   * repeat is the state's job (an item is re-detected only inside the reorg window), the rows'
   * uniqueness only its second line. Dead rows stay for the operator.
   */
  private prunedAt = 0;
  private async prune(tx: TransactionSql) {
    const now = this.o.clock.now();
    if (now - this.prunedAt < 3_600_000) return;
    this.prunedAt = now;
    await tx`
      delete from ${tx(SCHEMA)}.outbox
      where "group" = ${this.o.group} and destination = ${this.id} and status = 'delivered'
        and done_at < now() - interval '7 days'`;
  }

  /** `--once`: every message in order, due or not, stopping at the first that does not land. */
  async drainOnce(): Promise<void> {
    for (;;) {
      const r = await this.attempt(true).catch((e) => {
        this.o.onStoreError(e);
        return { outcome: "idle" as const };
      });
      if (r.outcome !== "delivered" && r.outcome !== "dead") return;
    }
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let r: PgAttempt;
      try {
        r = await this.attempt();
      } catch (e) {
        this.o.onStoreError(e);
        r = { outcome: "busy" }; // look again shortly
      }
      if (r.outcome === "delivered" || r.outcome === "dead") continue;
      if (r.outcome === "retry") continue; // the next attempt reads the new not_before
      const waitMs = r.outcome === "waiting" ? Math.min(r.waitMs, RECHECK_MS * 5) : RECHECK_MS;
      const woken = new AbortController();
      const stop = () => woken.abort();
      signal.addEventListener("abort", stop, { once: true });
      if (r.outcome === "idle") this.wake = stop;
      await this.o.clock.sleep(waitMs, woken.signal);
      this.wake = null;
      signal.removeEventListener("abort", stop);
    }
  }
}
