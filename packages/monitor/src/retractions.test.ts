/**
 * Every alert kind a reorg can undo (each event feed: violations, redemptions, MINTER_ROLE
 * grants and role changes, PSM pauses, backing-ratio crossings) is retracted when its item leaves
 * the re-read window, and the retraction is queued for each destination that had the alert.
 * The API is a stand-in whose feeds the test edits, as a reorg would.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAlertView } from "./alert-view.js";
import type { FeedKind, MonitorOptions } from "./monitor.js";
import { pollOnce } from "./monitor.js";
import { Outbox } from "./outbox/outbox.js";
import type { Sink } from "./sinks/sink.js";
import { fileStore } from "./state/file-store.js";
import type { Versioned } from "./state/monitor-state.js";

const KINDS: FeedKind[] = [
  "violation",
  "redemption",
  "minter_grant",
  "minter_role_change",
  "psm_pause",
  "backing_ratio",
];
const PATHS: Record<string, FeedKind> = {
  "/api/por/accounts/violations": "violation",
  "/api/events/redemptions": "redemption",
  "/api/events/minter-grants": "minter_grant",
  "/api/events/minter-role-changes": "minter_role_change",
  "/api/events/psm-pauses": "psm_pause",
  "/api/events/backing-ratio": "backing_ratio",
};
let head = 100;
const feeds = new Map<FeedKind, Array<{ id: string; blockNumber: number }>>();
let server: Server;
let apiUrl = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const kind = PATHS[u.pathname];
    const from = Number(u.searchParams.get("fromBlock"));
    const to = Number(u.searchParams.get("toBlock"));
    const items = (kind ? (feeds.get(kind) ?? []) : []).filter((i) => i.blockNumber >= from && i.blockNumber <= to);
    res.setHeader("content-type", "application/json");
    const indexedHead = { blockNumber: head };
    res.end(
      JSON.stringify(
        kind === "violation" ? { indexedHead, violations: items, next: null } : { indexedHead, events: items },
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const sink = (id: string) => {
  const got: string[] = [];
  const s: Sink & { got: string[] } = {
    id,
    type: "webhook",
    got,
    deliver: async (v) => {
      got.push(v.deliveryId);
      return { ok: true };
    },
  };
  return s;
};

describe("retractions", () => {
  it("retract every event kind a reorg removed, to each destination that had the alert", async () => {
    const o: MonitorOptions = {
      apiUrl,
      kinds: KINDS,
      redemptionMinKusd: "0",
      confirmations: 0,
      reorgWindow: 64,
      pollMs: 0,
      statePath: null,
      stdout: false,
      webhooks: [],
      secret: "",
      baseDelayMs: 1,
      fromBlock: "head",
      once: true,
    };
    const all = sink("all");
    const redemptionsOnly = sink("redemptions");
    const outbox = new Outbox({
      dir: null,
      routes: [
        { sink: all, kinds: null },
        { sink: redemptionsOnly, kinds: ["redemption"] },
      ],
      view: basicAlertView,
    });
    const store = fileStore(null, outbox);
    let state: Versioned = { state: { floor: 100, alerted: {} }, version: 0 };
    head = 110;
    for (const [i, kind] of KINDS.entries()) feeds.set(kind, [{ id: `${kind}-1`, blockNumber: 101 + i }]);
    state = await pollOnce(o, state, { write: () => {} }, store);
    // A reorg from block 101: the new chain has none of them.
    feeds.clear();
    head = 112;
    state = await pollOnce(o, state, { write: () => {} }, store);
    await outbox.drainOnce();
    expect(all.got).toEqual([...KINDS.map((k) => `alert:${k}:${k}-1`), ...KINDS.map((k) => `retraction:${k}:${k}-1`)]);
    expect(redemptionsOnly.got).toEqual(["alert:redemption:redemption-1", "retraction:redemption:redemption-1"]);
    expect(state.state.alerted).toEqual({});
  });
});
