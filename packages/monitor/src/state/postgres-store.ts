/**
 * The shared store: any number of monitors with the same PostgreSQL `state` URL and `group`
 * cooperate. Each polls the service as before; a poll commits its messages and next state only if
 * the state is still the version it read (compare-and-set on `cursor.version`), so an item is
 * queued once however many monitors saw it, and a message's row is unique per destination and
 * delivery id besides. Each destination is delivered by whichever monitor holds its lock
 * (postgres-queue.ts). While the database is unreachable every monitor keeps running and says so;
 * the next commit after it returns queues what happened meanwhile, from the last committed state.
 */
import { createHash } from "node:crypto";
import postgres, { type Sql } from "postgres";
import { deliveryId, type MonitorMessage } from "../deliver.js";
import { type BackoffPolicy, DEFAULT_BACKOFF } from "../outbox/backoff.js";
import { type OutboxEvent, type QueueClock, realClock } from "../outbox/destination-queue.js";
import type { Route } from "../outbox/outbox.js";
import type { AlertView } from "../sinks/sink.js";
import type { MonitorState, Versioned } from "./monitor-state.js";
import { PgDestinationQueue, RECHECK_MS } from "./postgres-queue.js";
import { migrate, SCHEMA } from "./postgres-schema.js";
import { alertIdOf, takes } from "./routing.js";
import type { MonitorStore, QueueStats } from "./store.js";

export type PostgresStoreOptions = {
  url: string;
  /** Monitors with the same group share one cursor and one outbox. */
  group: string;
  /** This monitor's name in `done_by`, logs and metrics. */
  instance: string;
  routes: Route[];
  view: (m: MonitorMessage) => AlertView;
  policy?: BackoffPolicy;
  clock?: QueueClock;
  onEvent?: (e: OutboxEvent) => void;
  /** The database became unreachable (with the error), or reachable again (null). */
  onHealth?: (error: string | null) => void;
  /** A delivery loop's store operation failed for another reason (logged; the loop goes on). */
  onError?: (e: unknown) => void;
  /**
   * What this monitor watches and where it delivers (kinds, thresholds, destinations with their
   * kinds): the group's first monitor records it, and a monitor whose differs is told.
   */
  groupConfig?: Record<string, unknown>;
  onConfigDiffers?: (theirs: { digest: string; setBy: string }, ours: { digest: string }) => void;
};

export type PostgresStore = MonitorStore & {
  /** Deliveries of the whole group by destination and the monitor that made them (metrics). */
  deliveredBy(): Promise<Array<{ destination: string; instance: string; delivered: number }>>;
  /** False while the last store operation failed. */
  readonly up: boolean;
};

/** A delivery under way holds its transaction open; PostgreSQL ends one left idle this long. */
export const LEASE_MS = 60_000;

export async function openPostgresStore(o: PostgresStoreOptions): Promise<PostgresStore> {
  const sql: Sql = postgres(o.url, {
    // One connection per destination's delivery, one for polls, one for metrics.
    max: o.routes.length + 2,
    onnotice: () => {},
    // Fail at once while the server refuses (no backoff of postgres.js's own); the loops retry.
    backoff: () => 0,
    connect_timeout: 5,
    connection: {
      application_name: `kusd-monitor ${o.instance}`.slice(0, 63),
      idle_in_transaction_session_timeout: LEASE_MS,
    },
  });
  let up = true;
  const onStoreError = (e: unknown) => {
    if (up) o.onHealth?.((e as Error).message || String(e));
    up = false;
  };
  const onStoreOk = () => {
    if (!up) o.onHealth?.(null);
    up = true;
  };
  /** Every store call: reports the database going away and coming back. */
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      const r = await run();
      onStoreOk();
      return r;
    } catch (e) {
      if (isConnectionError(e)) onStoreError(e);
      throw e;
    }
  };
  const { group, instance } = o;
  /** The tables and this monitor's destination rows, once per process (again after a failure). */
  let preparing: Promise<void> | null = null;
  const prepare = () =>
    (preparing ??= (async () => {
      await migrate(sql, instance);
      const ids = o.routes.map((r) => r.sink.id);
      await sql`
        insert into ${sql(SCHEMA)}.destination ("group", destination)
        select ${group}, unnest(${ids}::text[]) on conflict do nothing`;
      if (o.groupConfig) {
        const json = JSON.stringify(o.groupConfig);
        const digest = createHash("sha256").update(json).digest("hex").slice(0, 16);
        await sql`
          insert into ${sql(SCHEMA)}.group_config ("group", digest, config, set_by)
          values (${group}, ${digest}, ${json}::text::jsonb, ${instance}) on conflict do nothing`;
        const [theirs] = await sql`select digest, set_by from ${sql(SCHEMA)}.group_config where "group" = ${group}`;
        if (theirs && theirs.digest !== digest)
          o.onConfigDiffers?.({ digest: theirs.digest as string, setBy: theirs.set_by as string }, { digest });
      }
    })().catch((e) => {
      preparing = null;
      throw e;
    }));

  const queues = o.routes.map((r) => ({
    kinds: r.kinds,
    queue: new PgDestinationQueue({
      sql,
      group,
      instance,
      sink: r.sink,
      view: o.view,
      policy: o.policy ?? DEFAULT_BACKOFF,
      clock: o.clock ?? realClock,
      onEvent: o.onEvent,
      onStoreError: (e) => (isConnectionError(e) ? onStoreError(e) : o.onError?.(e)),
      onStoreOk,
    }),
  }));
  const destinations = queues.map((q) => q.queue.id);

  return {
    kind: "postgres",
    get up() {
      return up;
    },
    load: () =>
      guarded(async () => {
        await prepare();
        const [row] = await sql`select state, version from ${sql(SCHEMA)}.cursor where "group" = ${group}`;
        return row ? { state: row.state as MonitorState, version: Number(row.version) } : null;
      }),
    create: (state) =>
      guarded(async () => {
        await prepare();
        // JSON as text cast by the server: a parameter typed jsonb would be JSON-encoded once more.
        await sql`
          insert into ${sql(SCHEMA)}.cursor ("group", version, state, updated_by)
          values (${group}, 0, ${JSON.stringify(state)}::text::jsonb, ${instance}) on conflict do nothing`;
        const [row] = await sql`select state, version from ${sql(SCHEMA)}.cursor where "group" = ${group}`;
        if (!row) throw new Error(`the shared state of group ${group} vanished while it was made`);
        return { state: row.state as MonitorState, version: Number(row.version) };
      }),
    commit: (base: Versioned, messages: MonitorMessage[], next: MonitorState) =>
      guarded(async () => {
        const committed = await sql.begin(async (tx) => {
          // First, so a monitor that lost the race writes nothing: its messages were the winner's too.
          const moved = await tx`
            update ${tx(SCHEMA)}.cursor
            set state = ${JSON.stringify(next)}::text::jsonb, version = version + 1, updated_at = now(), updated_by = ${instance}
            where "group" = ${group} and version = ${base.version}
            returning version`;
          if (moved.length === 0) return null;
          const rows: Array<Record<string, unknown>> = [];
          for (const m of messages) {
            const hadAlert = new Set<string>();
            if (m.type !== "alert")
              for (const r of await tx`
                select destination from ${tx(SCHEMA)}.outbox
                where "group" = ${group} and delivery_id = ${alertIdOf(m)}`)
                hadAlert.add(r.destination);
            for (const { queue, kinds } of queues)
              if (takes(m, kinds, hadAlert.has(queue.id)))
                rows.push({
                  group,
                  destination: queue.id,
                  delivery_id: deliveryId(m),
                  kind: m.kind,
                  message: m,
                  enqueued_by: instance,
                });
          }
          // In the order detected: `seq` is the delivery order. A row already there stays as it is.
          for (const row of rows)
            await tx`
              insert into ${tx(SCHEMA)}.outbox ("group", destination, delivery_id, kind, message, enqueued_by)
              values (${group}, ${row.destination as string}, ${row.delivery_id as string}, ${row.kind as string},
                      ${JSON.stringify(row.message)}::text::jsonb, ${instance})
              on conflict ("group", destination, delivery_id) do nothing`;
          return { state: next, version: Number(moved[0]?.version) };
        });
        if (committed && messages.length) for (const { queue } of queues) queue.notify();
        return committed;
      }),
    run: async (signal) => {
      // The tables first: a monitor started beside others on an empty database waits for them.
      while (!signal.aborted) {
        try {
          await guarded(prepare);
          break;
        } catch (e) {
          if (!isConnectionError(e)) o.onError?.(e);
          await (o.clock ?? realClock).sleep(RECHECK_MS, signal);
        }
      }
      await Promise.all(queues.map(({ queue }) => queue.run(signal)));
    },
    drainOnce: async () => {
      await guarded(prepare);
      await Promise.all(queues.map(({ queue }) => queue.drainOnce()));
    },
    stats: () =>
      guarded(async () => {
        const rows = await sql`
          select destination,
                 count(*) filter (where status = 'pending')::int as queued,
                 count(*) filter (where status = 'dead')::int as dead,
                 coalesce(extract(epoch from now() - min(enqueued_at) filter (where status = 'pending')) * 1000, 0)::float8 as oldest
          from ${sql(SCHEMA)}.outbox where "group" = ${group} and destination = any(${destinations}::text[])
          group by destination`;
        const by = new Map(rows.map((r) => [r.destination as string, r]));
        return destinations.map(
          (destination): QueueStats => ({
            destination,
            queued: by.get(destination)?.queued ?? 0,
            dead: by.get(destination)?.dead ?? 0,
            oldestAgeMs: Math.round(by.get(destination)?.oldest ?? 0),
          }),
        );
      }),
    deliveredBy: () =>
      guarded(async () => {
        const rows = await sql`
          select destination, done_by, count(*)::int as delivered from ${sql(SCHEMA)}.outbox
          where "group" = ${group} and status = 'delivered' group by destination, done_by`;
        return rows.map((r) => ({
          destination: r.destination as string,
          instance: r.done_by as string,
          delivered: r.delivered as number,
        }));
      }),
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Errors that mean the database is not there (as opposed to a bad query). */
export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  return (
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|CONNECTION_|CONNECT_TIMEOUT)/.test(code) ||
    /^(57P0[1-3]|08)/.test(code) // admin shutdown, crash shutdown, cannot connect now; connection exceptions
  );
}
