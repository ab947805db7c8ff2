/**
 * The monitor: follows the service's violation listing (and, opted in, MINTER_ROLE grants and
 * revocations, PSM pauses, large redemptions and backing-ratio crossings) and delivers each new
 * item once it has `confirmations` blocks on top; and, opted in, watches two conditions with no
 * block of their own (a stale statement, an unreadable venue: see conditions.ts). Every poll re-reads the last `reorgWindow` blocks: an item alerted there that has
 * disappeared was removed by a reorg and gets a retraction. State (the final floor and the
 * alerted items still inside the window) is written after every delivery, so a restart
 * resumes with nothing missed and nothing repeated (at least once, with a stable delivery id).
 */

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { KusdError } from "../../core/errors.js";
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
import type { OutboxEvent } from "./outbox/destination-queue.js";
import { Outbox, type Route } from "./outbox/outbox.js";
import { type RiskState, stepRisk } from "./risk-watch.js";
import { stdoutSink, webhookSink } from "./sinks-basic.js";

export type FeedKind =
  | "violation"
  | "minter_grant"
  | "minter_role_change"
  | "psm_pause"
  | "redemption"
  | "backing_ratio";
export type FeedItem = { id: string; blockNumber: number; [k: string]: unknown };

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
  statePath: string | null;
  stdout: boolean;
  webhooks: string[];
  secret: string;
  /** Ignored since the outbox (issue 30): a delivery is retried for as long as it takes. */
  maxAttempts?: number;
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

export type MonitorState = {
  floor: number;
  alerted: Record<string, { kind: FeedKind; blockNumber: number; item: FeedItem }>;
  /** Conditions in progress (statement_stale, venue_unreadable). */
  conditions?: Partial<Record<ConditionKind, ConditionState>>;
  /** Triggers out of their safe state and gaps, as last seen (see risk-watch.ts). */
  risk?: RiskState;
  /** The block of that last risk-status read. */
  riskBlock?: number;
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

export function loadState(path: string | null): MonitorState | null {
  if (!path || !existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8")) as MonitorState;
}

function saveState(path: string | null, state: MonitorState) {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(state));
  renameSync(`${path}.tmp`, path); // atomic: a crash leaves the old state or the new one
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
  /** Receives the outbox once it exists (metrics read its queues). */
  onOutbox?: (outbox: Outbox) => void;
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

/** One poll: alerts for new confirmed items, retractions for vanished ones. Returns the new state. */
export async function pollOnce(
  o: MonitorOptions,
  state: MonitorState,
  io: MonitorIo,
  outbox: Pick<Outbox, "enqueue">,
): Promise<MonitorState> {
  const head = await indexedHeadOf(o.apiUrl);
  // Durable in every destination's queue on return, so the state below may move past it.
  const deliver = async (m: MonitorMessage) => {
    outbox.enqueue(m);
    io.onMessage?.(m);
  };
  if (o.statementMaxAgeSeconds != null || o.venueUnreadableAfterSeconds != null) {
    const now = Math.floor((io.now?.() ?? Date.now()) / 1000);
    const { conditions, messages } = await pollConditions(o, state, head, now);
    for (const m of messages) await deliver(m);
    state = { ...state, conditions };
    saveState(o.statePath, state);
  }
  const confirmedTo = head - o.confirmations;
  if (o.riskTriggers && confirmedTo >= 0) {
    const statusAt = (block: number) => getJson(`${o.apiUrl}/api/risk-status?block=${block}`);
    const { next, messages } = await stepRisk(
      state.risk,
      await statusAt(confirmedTo),
      head - o.reorgWindow,
      statusAt,
      state.riskBlock ?? null,
    );
    for (const m of messages) await deliver(m);
    state = { ...state, risk: next, riskBlock: confirmedTo };
    saveState(o.statePath, state);
  }
  if (confirmedTo <= state.floor) return state;
  const fetched = new Map<string, { kind: FeedKind; item: FeedItem }>();
  for (const kind of o.kinds) {
    for (const item of await fetchFeed(o, kind, state.floor + 1, confirmedTo))
      fetched.set(`${kind}:${item.id}`, { kind, item });
  }

  const next: MonitorState = { ...state, alerted: { ...state.alerted } };
  for (const [key, a] of Object.entries(state.alerted)) {
    if (a.blockNumber > confirmedTo || fetched.has(key)) continue;
    await deliver({
      type: "retraction",
      kind: a.kind,
      id: a.item.id,
      blockNumber: a.blockNumber,
      reason: "no longer in the indexed chain: removed by a reorganisation",
      retracted: a.item,
    });
    delete next.alerted[key];
    saveState(o.statePath, next);
  }
  const ordered = [...fetched.entries()].sort(([, x], [, y]) => x.item.blockNumber - y.item.blockNumber);
  for (const [key, { kind, item }] of ordered) {
    if (next.alerted[key]) continue;
    await deliver({
      type: "alert",
      kind,
      ...item,
      id: item.id,
      blockNumber: item.blockNumber,
      confirmations: head - item.blockNumber,
    });
    next.alerted[key] = { kind, blockNumber: item.blockNumber, item };
    saveState(o.statePath, next);
  }
  // Blocks older than the window are final: forget what was alerted there and move the floor.
  const finalTo = Math.max(next.floor, head - o.reorgWindow);
  for (const [key, a] of Object.entries(next.alerted)) if (a.blockNumber <= finalTo) delete next.alerted[key];
  next.floor = finalTo;
  saveState(o.statePath, next);
  return next;
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

/**
 * Runs until aborted (or one poll with `once`). Polling only appends to the outbox; each
 * destination drains its own queue beside it, retrying for as long as it takes. Resolves with
 * the exit code: 0 when stopped; with `once`, 3 when something is still queued after one
 * delivery attempt each (kept in the outbox for the next run), 2 when the poll itself failed.
 */
export async function runMonitor(o: MonitorOptions, io: MonitorIo): Promise<number> {
  if (o.reorgWindow < o.confirmations) throw new MonitorError("reorg window must be at least the confirmation depth");
  // Messages for people name each address's registry role and label: read the registry once here.
  const registry = await fetchRegistry(o.apiUrl).catch(() => registryLookup([]));
  const outbox = new Outbox({
    dir: o.outboxDir !== undefined ? o.outboxDir : o.statePath ? `${o.statePath}.outbox` : null,
    routes: routesOf(o, io),
    view: (m) => alertViewFor(m, { registry, apiUrl: o.apiUrl, templates: o.templates }),
    policy: { baseMs: Math.max(1, o.baseDelayMs), capMs: o.backoffCapMs ?? 5 * 60_000 },
    onEvent: (e) => {
      // Logged as the monitor's other warnings and errors: one JSON line, type first.
      const { type, ...rest } = e;
      if (type === "retried") io.write(`${JSON.stringify({ type: "warning", event: type, ...rest })}\n`);
      if (type === "dead") io.write(`${JSON.stringify({ type: "error", event: "dead_lettered", ...rest })}\n`);
      io.onOutboxEvent?.(e);
    },
  });
  io.onOutbox?.(outbox);
  let state = loadState(o.statePath);
  if (!state) {
    const head = await indexedHeadOf(o.apiUrl);
    // Starting at the head: what is already confirmed is not news; anything newer will be.
    state = { floor: o.fromBlock === "head" ? head - o.confirmations : Math.max(-1, o.fromBlock - 1), alerted: {} };
    saveState(o.statePath, state);
  }
  if (o.once) {
    let code = 0;
    try {
      state = await pollOnce(o, state, io, outbox);
    } catch (e) {
      io.write(`${JSON.stringify({ type: "warning", error: (e as Error).message })}\n`);
      code = 2;
    }
    await outbox.drainOnce(); // what a previous run left queued, too
    return code || (outbox.queued() > 0 ? 3 : 0);
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (io.signal?.aborted) stop.abort();
  io.signal?.addEventListener("abort", onAbort, { once: true });
  const draining = outbox.run(stop.signal);
  // Between polls: the service's head long poll (head-wait.ts), or the injected sleep of a test.
  let seen: number | null = null;
  const between = io.sleep
    ? () => io.sleep!(o.pollMs)
    : async () => {
        seen = await waitForNewHead(o.apiUrl, seen, o.pollMs, stop.signal);
      };
  try {
    while (!stop.signal.aborted) {
      try {
        state = await pollOnce(o, state, io, outbox);
      } catch (e) {
        // The service may be restarting: report and try again at the next poll.
        io.write(`${JSON.stringify({ type: "warning", error: (e as Error).message })}\n`);
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
