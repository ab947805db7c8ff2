/**
 * The monitor: follows the service's violation listing (and, opted in, MINTER_ROLE grants and
 * revocations, PSM pauses, large redemptions and backing-ratio crossings) and delivers each new
 * item once it has `confirmations` blocks on top; and, opted in, watches two conditions with no
 * block of their own (a stale statement, an unreadable venue: see conditions.ts). Every poll
 * re-reads the last `reorgWindow` blocks: an item alerted there that has disappeared was removed
 * by a reorg and gets a retraction. A poll's messages and the state after it (the final floor and
 * the alerted items still inside the window) are committed together to the store (state/store.ts):
 * a file of this process's own, or PostgreSQL shared by a group of monitors, where a poll another
 * monitor committed first changes nothing. So a restart resumes with nothing missed, and an item
 * is queued once per destination whichever monitor saw it (delivered at least once, with a stable
 * delivery id for the receiver to drop the one possible double).
 */

import { hostname } from "node:os";
import { KusdError } from "@kusd/core";
import { alertViewFor } from "./alert-view.js";
import {
  type ConditionKind,
  type ConditionState,
  type Observation,
  observeStatement,
  observeVenue,
  stepCondition,
} from "./conditions.js";
import type { SinkConfig } from "./config/schema.js";
import { buildSink } from "./config/sink-registry.js";
import type { MonitorMessage } from "./deliver.js";
import { withExactAmounts } from "./exact-amounts.js";
import { waitForNewHead } from "./head-wait.js";
import { fetchRegistry, registryLookup } from "./messages/registry-lookup.js";
import type { AlertTemplate } from "./messages/template.js";
import { type OutboxEvent, realClock } from "./outbox/destination-queue.js";
import { Outbox, type Route } from "./outbox/outbox.js";
import { stepRisk } from "./risk-watch.js";
import { stdoutSink, webhookSink } from "./sinks-basic.js";
import { fileStore } from "./state/file-store.js";
import type { FeedItem, FeedKind, MonitorState, Versioned } from "./state/monitor-state.js";
import { openPostgresStore } from "./state/postgres-store.js";
import type { MonitorStore } from "./state/store.js";

export type { FeedItem, FeedKind, MonitorState } from "./state/monitor-state.js";

export type MonitorOptions = {
  apiUrl: string;
  kinds: FeedKind[];
  /** Redemptions at or above this kUSD amount (with kind "redemption"). */
  redemptionMinKusd: string;
  /** The backing ratio's threshold (with kind "backing_ratio"), e.g. "1". */
  backingRatioBelow?: string;
  /** Alert when the latest signed statement is older than this (seconds); unset: not watched. */
  statementMaxAgeSeconds?: number | null;
  /** Alert when the venue has been unreadable for this long (seconds); unset: not watched. */
  venueUnreadableAfterSeconds?: number | null;
  /** Alert on risk-status triggers leaving their safe state and on new gaps (kinds trigger, gap). */
  riskTriggers?: boolean;
  confirmations: number;
  reorgWindow: number;
  pollMs: number;
  /** The state file (single process); ignored with `stateUrl`. */
  statePath: string | null;
  /** A PostgreSQL URL: the state and outbox shared by every monitor of `group` (state/postgres-store.ts). */
  stateUrl?: string | null;
  /** With `stateUrl`: monitors of the same group cooperate (default "default"). */
  group?: string;
  /** This monitor's name in the shared store and its metrics (default host:pid). */
  instance?: string;
  stdout: boolean;
  webhooks: string[];
  secret: string;
  /** The outbox's first retry delay; it doubles per failure up to `backoffCapMs`. */
  baseDelayMs: number;
  backoffCapMs?: number;
  /** Destinations as configured (sink-registry.ts builds them), beside `stdout` and `webhooks`. */
  sinks?: SinkConfig[];
  /** Destinations already built (tests), beside the others. */
  routes?: Route[];
  /** Per-kind overrides of the messages' title and lines (messages/template.ts). */
  templates?: Partial<Record<string, AlertTemplate>>;
  /** Serve /metrics on this port (0: any free port); null or unset: no metrics. */
  metricsPort?: number | null;
  /** The outbox directory; default `<statePath>.outbox`, in memory without a state file. */
  outboxDir?: string | null;
  /** First run only: the block to start alerting from (default: the head, i.e. new items only). */
  fromBlock: number | "head";
  once: boolean;
};

export class MonitorError extends KusdError<Record<string, unknown>> {
  override name = "MonitorError";
  readonly code: string = "monitor_failed";
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

const PATHS: Record<FeedKind, string> = {
  violation: "/api/por/accounts/violations",
  minter_grant: "/api/events/minter-grants",
  minter_role_change: "/api/events/minter-role-changes",
  backing_ratio: "/api/events/backing-ratio",
  psm_pause: "/api/events/psm-pauses",
  redemption: "/api/events/redemptions",
};

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read field by field by each caller
async function getJson(url: string): Promise<any> {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new MonitorError(`GET ${url}: HTTP ${res.status}`, { url, status: res.status });
  return res.json();
}

/** Every item of `kind` in [fromBlock, toBlock], following the listing's pages. */
export async function fetchFeed(
  o: Pick<MonitorOptions, "apiUrl" | "redemptionMinKusd" | "backingRatioBelow">,
  kind: FeedKind,
  fromBlock: number,
  toBlock: number,
): Promise<FeedItem[]> {
  const base = `${o.apiUrl}${PATHS[kind]}?fromBlock=${fromBlock}&toBlock=${toBlock}`;
  if (kind !== "violation") {
    const extra =
      kind === "redemption"
        ? `&minKusd=${o.redemptionMinKusd}`
        : kind === "backing_ratio"
          ? `&below=${o.backingRatioBelow ?? "1"}`
          : "";
    return ((await getJson(base + extra)).events as FeedItem[]).map(withExactAmounts);
  }
  const items: FeedItem[] = [];
  let after: string | null = null;
  do {
    const page: { violations: FeedItem[]; next: string | null } = await getJson(
      `${base}&limit=1000${after ? `&after=${after}` : ""}`,
    );
    items.push(...(page.violations as FeedItem[]).map(withExactAmounts));
    after = page.next;
  } while (after);
  return items;
}

export async function indexedHeadOf(apiUrl: string): Promise<number> {
  const page = await getJson(`${apiUrl}/api/por/accounts/violations?limit=1&fromBlock=0&toBlock=0`);
  return page.indexedHead.blockNumber as number;
}

export type MonitorIo = {
  write: (line: string) => void;
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Each message as it is queued (metrics count alerts raised here). */
  onMessage?: (m: MonitorMessage) => void;
  /** Each delivery, retry and dead letter of the outbox. */
  onOutboxEvent?: (e: OutboxEvent) => void;
  /** Receives the store once it exists (metrics read its queues). */
  onStore?: (store: MonitorStore) => void;
};

/** The latest statement, or null when none is published (503); other failures throw. */
async function latestStatement(
  apiUrl: string,
): Promise<{ attestation_hash: string; signed_payload_canonical: string } | null> {
  const res = await fetch(`${apiUrl}/api/por/signed`, { signal: AbortSignal.timeout(15_000) });
  if (res.status === 503) return null;
  if (!res.ok) throw new MonitorError(`GET ${apiUrl}/api/por/signed: HTTP ${res.status}`, { status: res.status });
  return res.json() as Promise<{ attestation_hash: string; signed_payload_canonical: string }>;
}

/** Polls the watched conditions; returns what to deliver and their new states. */
async function pollConditions(o: MonitorOptions, state: MonitorState, head: number, now: number) {
  const conditions = { ...state.conditions };
  const messages: MonitorMessage[] = [];
  const step = async (
    kind: ConditionKind,
    limit: number,
    observe: (prev: ConditionState | undefined) => Promise<Observation>,
  ) => {
    const prev = conditions[kind];
    const { next, send } = stepCondition(prev, await observe(prev), now, limit);
    if (send === "alert")
      messages.push({
        type: "alert",
        kind,
        id: next!.id,
        blockNumber: head,
        since: new Date(next!.since * 1000).toISOString(),
        limitSeconds: limit,
        ...next!.detail,
      });
    if (send === "resolved")
      messages.push({
        type: "resolved",
        kind,
        id: prev!.id,
        blockNumber: head,
        since: new Date(prev!.since * 1000).toISOString(),
        resolvedAt: new Date(now * 1000).toISOString(),
      });
    if (next) conditions[kind] = next;
    else delete conditions[kind];
  };
  const maxAge = o.statementMaxAgeSeconds;
  if (maxAge != null)
    await step("statement_stale", maxAge, async (prev) =>
      observeStatement(await latestStatement(o.apiUrl), now, prev, maxAge),
    );
  const venueLimit = o.venueUnreadableAfterSeconds;
  if (venueLimit != null) {
    await step("venue_unreadable", venueLimit, async (prev) => {
      const health = await getJson(`${o.apiUrl}/api/health`);
      return observeVenue(health?.dependencies?.venue ?? null, now, prev);
    });
  }
  return { conditions, messages };
}

/** What one poll finds: the messages to queue (in order) and the state after them. */
export async function detect(
  o: MonitorOptions,
  state: MonitorState,
  io: Pick<MonitorIo, "now">,
): Promise<{ messages: MonitorMessage[]; next: MonitorState }> {
  const head = await indexedHeadOf(o.apiUrl);
  const messages: MonitorMessage[] = [];
  if (o.statementMaxAgeSeconds != null || o.venueUnreadableAfterSeconds != null) {
    const now = Math.floor((io.now?.() ?? Date.now()) / 1000);
    const polled = await pollConditions(o, state, head, now);
    messages.push(...polled.messages);
    state = { ...state, conditions: polled.conditions };
  }
  const confirmedTo = head - o.confirmations;
  if (o.riskTriggers && confirmedTo >= 0) {
    const statusAt = (block: number) => getJson(`${o.apiUrl}/api/risk-status?block=${block}`);
    const stepped = await stepRisk(
      state.risk,
      await statusAt(confirmedTo),
      head - o.reorgWindow,
      statusAt,
      state.riskBlock ?? null,
    );
    messages.push(...stepped.messages);
    state = { ...state, risk: stepped.next, riskBlock: confirmedTo };
  }
  if (confirmedTo <= state.floor) return { messages, next: state };
  const fetched = new Map<string, { kind: FeedKind; item: FeedItem }>();
  for (const kind of o.kinds) {
    for (const item of await fetchFeed(o, kind, state.floor + 1, confirmedTo))
      fetched.set(`${kind}:${item.id}`, { kind, item });
  }

  const next: MonitorState = { ...state, alerted: { ...state.alerted } };
  for (const [key, a] of Object.entries(state.alerted)) {
    if (a.blockNumber > confirmedTo || fetched.has(key)) continue;
    messages.push({
      type: "retraction",
      kind: a.kind,
      id: a.item.id,
      blockNumber: a.blockNumber,
      reason: "no longer in the indexed chain: removed by a reorganisation",
      retracted: a.item,
    });
    delete next.alerted[key];
  }
  const ordered = [...fetched.entries()].sort(([, x], [, y]) => x.item.blockNumber - y.item.blockNumber);
  for (const [key, { kind, item }] of ordered) {
    if (next.alerted[key]) continue;
    messages.push({
      type: "alert",
      kind,
      ...item,
      id: item.id,
      blockNumber: item.blockNumber,
      confirmations: head - item.blockNumber,
    });
    next.alerted[key] = { kind, blockNumber: item.blockNumber, item };
  }
  // Blocks older than the window are final: forget what was alerted there and move the floor.
  const finalTo = Math.max(next.floor, head - o.reorgWindow);
  for (const [key, a] of Object.entries(next.alerted)) if (a.blockNumber <= finalTo) delete next.alerted[key];
  next.floor = finalTo;
  return { messages, next };
}

/**
 * One poll committed: its messages queued and the state moved, at once. When another monitor of
 * the group committed first, nothing is written and the state returned is the winner's.
 */
export async function pollOnce(
  o: MonitorOptions,
  base: Versioned,
  io: MonitorIo,
  store: Pick<MonitorStore, "commit" | "load">,
): Promise<Versioned> {
  const { messages, next } = await detect(o, base.state, io);
  const committed = await store.commit(base, messages, next);
  if (!committed) return (await store.load()) ?? base;
  for (const m of messages) io.onMessage?.(m);
  return committed;
}

/** The destinations of these options: stdout and webhooks from flags, then configured routes. */
export function routesOf(o: MonitorOptions, io: Pick<MonitorIo, "write">): Route[] {
  const routes: Route[] = [];
  if (o.stdout) routes.push({ sink: stdoutSink({ id: "stdout", write: io.write }), kinds: null });
  for (const [i, url] of o.webhooks.entries())
    routes.push({
      sink: webhookSink({ id: i === 0 ? "webhook" : `webhook-${i + 1}`, url, secret: o.secret }),
      kinds: null,
    });
  for (const c of o.sinks ?? []) routes.push({ sink: buildSink(c, io), kinds: c.kinds ?? null });
  routes.push(...(o.routes ?? []));
  const ids = new Set<string>();
  for (const r of routes) {
    if (ids.has(r.sink.id)) throw new MonitorError(`two destinations share the id ${r.sink.id}`, { id: r.sink.id });
    ids.add(r.sink.id);
  }
  return routes;
}

/** The store the options name: PostgreSQL shared by a group, or this process's own files. */
export async function openStore(o: MonitorOptions, io: MonitorIo, routes: Route[]): Promise<MonitorStore> {
  const apiUrl = o.apiUrl;
  // Messages for people name each address's registry role and label: read the registry once here.
  const registry = await fetchRegistry(apiUrl).catch(() => registryLookup([]));
  const view = (m: MonitorMessage) => alertViewFor(m, { registry, apiUrl, templates: o.templates });
  const policy = { baseMs: Math.max(1, o.baseDelayMs), capMs: o.backoffCapMs ?? 5 * 60_000 };
  const onEvent = (e: OutboxEvent) => {
    // Logged as the monitor's other warnings and errors: one JSON line, type first.
    const { type, ...rest } = e;
    if (type === "retried") io.write(`${JSON.stringify({ type: "warning", event: type, ...rest })}\n`);
    if (type === "dead") io.write(`${JSON.stringify({ type: "error", event: "dead_lettered", ...rest })}\n`);
    io.onOutboxEvent?.(e);
  };
  if (o.stateUrl) {
    const instance = instanceName(o);
    return openPostgresStore({
      url: o.stateUrl,
      group: o.group ?? "default",
      instance,
      routes,
      view,
      policy,
      onEvent,
      onHealth: (error) =>
        io.write(
          `${JSON.stringify(
            error === null
              ? { type: "info", event: "state_reachable", store: "postgres", instance }
              : { type: "warning", event: "state_unreachable", store: "postgres", instance, error },
          )}\n`,
        ),
      onError: (e) => io.write(`${JSON.stringify({ type: "warning", error: (e as Error).message })}\n`),
      groupConfig: groupConfigOf(o, routes),
      onConfigDiffers: (theirs, ours) =>
        io.write(
          `${JSON.stringify({
            type: "error",
            event: "group_config_differs",
            message:
              "this monitor watches or delivers otherwise than the group's first: every monitor of a group must run the same configuration",
            group: o.group ?? "default",
            instance,
            ours: ours.digest,
            theirs: theirs.digest,
            setBy: theirs.setBy,
          })}\n`,
        ),
    });
  }
  const outbox = new Outbox({
    dir: o.outboxDir !== undefined ? o.outboxDir : o.statePath ? `${o.statePath}.outbox` : null,
    routes,
    view,
    policy,
    onEvent,
  });
  return fileStore(o.statePath, outbox);
}

/** What a group's monitors must agree on: what they watch and where each kind is delivered. */
export function groupConfigOf(o: MonitorOptions, routes: Route[]): Record<string, unknown> {
  return {
    kinds: [...o.kinds].sort(),
    redemptionMinKusd: o.redemptionMinKusd,
    backingRatioBelow: o.backingRatioBelow ?? null,
    statementMaxAgeSeconds: o.statementMaxAgeSeconds ?? null,
    venueUnreadableAfterSeconds: o.venueUnreadableAfterSeconds ?? null,
    riskTriggers: o.riskTriggers ?? false,
    confirmations: o.confirmations,
    reorgWindow: o.reorgWindow,
    destinations: routes
      .map((r) => ({ id: r.sink.id, type: r.sink.type, kinds: r.kinds ? [...r.kinds].sort() : null }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
}

export const instanceName = (o: Pick<MonitorOptions, "instance">) => o.instance ?? `${hostname()}:${process.pid}`;

/** The first run's state: from the head (what is already confirmed is not news), or `fromBlock`. */
async function loadOrCreate(o: MonitorOptions, store: MonitorStore): Promise<Versioned> {
  const found = await store.load();
  if (found) return found;
  const head = await indexedHeadOf(o.apiUrl);
  const floor = o.fromBlock === "head" ? head - o.confirmations : Math.max(-1, o.fromBlock - 1);
  return store.create({ floor, alerted: {} });
}

const warn = (io: MonitorIo, e: unknown) =>
  io.write(`${JSON.stringify({ type: "warning", error: (e as Error).message })}\n`);

/**
 * Runs until aborted (or one poll with `once`). Polling only appends to the outbox; each
 * destination drains its own queue beside it, retrying for as long as it takes. Resolves with
 * the exit code: 0 when stopped; with `once`, 3 when something is still queued after one
 * delivery attempt each (kept in the outbox for the next run), 2 when the poll itself failed.
 */
export async function runMonitor(o: MonitorOptions, io: MonitorIo): Promise<number> {
  if (o.reorgWindow < o.confirmations) throw new MonitorError("reorg window must be at least the confirmation depth");
  const store = await openStore(o, io, routesOf(o, io));
  io.onStore?.(store);
  try {
    return await runOn(o, io, store);
  } finally {
    await store.close();
  }
}

async function runOn(o: MonitorOptions, io: MonitorIo, store: MonitorStore): Promise<number> {
  const shared = store.kind === "postgres";
  if (o.once) {
    let code = 0;
    try {
      await pollOnce(o, await loadOrCreate(o, store), io, store);
    } catch (e) {
      warn(io, e);
      code = 2;
    }
    await store.drainOnce(); // what a previous run left queued, too
    const queued = await store.stats().then(
      (s) => s.reduce((n, q) => n + q.queued, 0),
      () => 1,
    );
    return code || (queued > 0 ? 3 : 0);
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (io.signal?.aborted) stop.abort();
  io.signal?.addEventListener("abort", onAbort, { once: true });
  const draining = store.run(stop.signal);
  // Between polls: the service's head long poll (head-wait.ts), or the injected sleep of a test.
  let seen: number | null = null;
  const between = io.sleep
    ? () => io.sleep!(o.pollMs)
    : async () => {
        seen = await waitForNewHead(o.apiUrl, seen, o.pollMs, stop.signal);
      };
  let state: Versioned | null = null;
  try {
    while (!stop.signal.aborted) {
      try {
        // A shared state moves under other monitors too: start each poll from its latest version.
        if (state === null || shared) state = await loadOrCreate(o, store);
        state = await pollOnce(o, state, io, store);
      } catch (e) {
        // The service or the state's database may be restarting: report and try again.
        warn(io, e);
        if (shared) await realClock.sleep(Math.min(o.pollMs, 1_000), stop.signal);
      }
      if (stop.signal.aborted) break;
      await between();
    }
  } finally {
    io.signal?.removeEventListener("abort", onAbort);
    stop.abort();
    await draining; // each destination finishes the delivery and write under way
  }
  return 0;
}
