import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { basicAlertView } from "../alert-view.js";
import type { MonitorMessage } from "../deliver.js";
import type { DeliveryResult, Sink } from "../sinks/sink.js";
import { backoffDelay } from "./backoff.js";
import type { QueueClock } from "./destination-queue.js";
import { Outbox } from "./outbox.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "kusd-outbox-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Virtual time: sleepers wait on timers the test fires with `advance()`, which moves the clock
 * to the earliest timer and wakes it (after letting pending work settle).
 */
function fakeClock(start = 1_000_000) {
  const timers: Array<{ at: number; wake: () => void }> = [];
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
  };
  const c = {
    t: start,
    now: () => c.t,
    random: () => 0.5,
    sleep: (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const timer = { at: c.t + ms, wake: () => resolve() };
        timers.push(timer);
        signal.addEventListener(
          "abort",
          () => {
            timers.splice(timers.indexOf(timer), 1);
            resolve();
          },
          { once: true },
        );
      }),
    settle,
    /** Fires the earliest timer; false when none is set. */
    async advance() {
      await settle();
      if (!timers.length) return false;
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift()!;
      c.t = Math.max(c.t, next.at);
      next.wake();
      await settle();
      return true;
    },
  };
  return c satisfies QueueClock;
}

/** A sink whose answer the test decides per call; keeps what landed. */
function fakeSink(id: string, answer: (n: number) => DeliveryResult = () => ({ ok: true })) {
  const got: string[] = [];
  let calls = 0;
  const sink: Sink & { got: string[]; calls: () => number } = {
    id,
    type: "webhook",
    got,
    calls: () => calls,
    async deliver(view) {
      const r = answer(calls++);
      if (r.ok) got.push(view.deliveryId);
      return r;
    },
  };
  return sink;
}

const alert = (i: number, kind = "violation"): MonitorMessage => ({ type: "alert", kind, id: `v${i}`, blockNumber: i });

describe("backoff", () => {
  it("doubles from the base, is capped, jitters within [delay/2, delay] and honours Retry-After", () => {
    const p = { baseMs: 100, capMs: 1_000 };
    expect([1, 2, 3, 4, 5, 40].map((f) => backoffDelay(f, p, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(3, p, () => 0)).toBe(200);
    expect(backoffDelay(1, p, () => 0, 5_000)).toBe(5_000);
    expect(Number.isFinite(backoffDelay(10_000, p, () => 1))).toBe(true);
  });
});

describe("the outbox", () => {
  it("delivers in order per destination, once per delivery id, and remembers delivered ids across restarts", async () => {
    const dir = tempDir();
    const clock = fakeClock();
    const sink = fakeSink("a");
    const o = new Outbox({ dir, routes: [{ sink, kinds: null }], view: basicAlertView, clock });
    for (const i of [1, 2, 3]) o.enqueue(alert(i));
    expect(o.enqueue(alert(2))).toBe(0); // already queued
    await o.drainOnce();
    expect(sink.got).toEqual(["alert:violation:v1", "alert:violation:v2", "alert:violation:v3"]);
    // A restart (a new outbox over the same directory) drops what was delivered.
    const again = new Outbox({ dir, routes: [{ sink, kinds: null }], view: basicAlertView, clock });
    expect(again.enqueue(alert(3))).toBe(0);
    await again.drainOnce();
    expect(sink.got).toHaveLength(3);
  });

  it("retries with backoff for as long as it takes, dead-letters a refusal and moves on", async () => {
    const clock = fakeClock();
    const flaky = fakeSink("f", (n) => (n < 20 ? { ok: false, retryable: true, error: "HTTP 503" } : { ok: true }));
    const refusing = fakeSink("r", (n) =>
      n === 0 ? { ok: false, retryable: false, error: "HTTP 400" } : { ok: true },
    );
    const events: string[] = [];
    const o = new Outbox({
      dir: null,
      routes: [
        { sink: flaky, kinds: null },
        { sink: refusing, kinds: null },
      ],
      view: basicAlertView,
      clock,
      policy: { baseMs: 100, capMs: 10_000 },
      onEvent: (e) => events.push(`${e.destination}:${e.type}`),
    });
    o.enqueue(alert(1));
    o.enqueue(alert(2));
    const stop = new AbortController();
    const running = o.run(stop.signal);
    while (o.queued() > 0) await clock.advance();
    stop.abort();
    await running;
    expect(flaky.got).toEqual(["alert:violation:v1", "alert:violation:v2"]);
    expect(events.filter((e) => e === "f:retried")).toHaveLength(20);
    expect(refusing.got).toEqual(["alert:violation:v2"]);
    expect(events).toContain("r:dead");
    expect(o.stats().find((s) => s.destination === "r")).toMatchObject({ queued: 0, dead: 1 });
  });

  it("routes by kind, and sends a retraction wherever its alert went", async () => {
    const all = fakeSink("all");
    const redemptions = fakeSink("red");
    const o = new Outbox({
      dir: null,
      routes: [
        { sink: all, kinds: null },
        { sink: redemptions, kinds: ["redemption"] },
      ],
      view: basicAlertView,
      clock: fakeClock(),
    });
    o.enqueue(alert(1, "violation"));
    o.enqueue(alert(2, "redemption"));
    o.enqueue({ type: "retraction", kind: "redemption", id: "v2", blockNumber: 2 });
    await o.drainOnce();
    expect(all.got).toEqual(["alert:violation:v1", "alert:redemption:v2", "retraction:redemption:v2"]);
    expect(redemptions.got).toEqual(["alert:redemption:v2", "retraction:redemption:v2"]);
  });

  it("a destination down for 10 minutes delays nobody else, then gets everything exactly once", async () => {
    const dir = tempDir();
    const clock = fakeClock();
    const start = clock.t;
    const TEN_MIN = 10 * 60_000;
    const down = fakeSink("down", () =>
      clock.t - start < TEN_MIN ? { ok: false, retryable: true, error: "ECONNREFUSED" } : { ok: true },
    );
    const up = fakeSink("up");
    const o = new Outbox({
      dir,
      routes: [
        { sink: down, kinds: null },
        { sink: up, kinds: null },
      ],
      view: basicAlertView,
      clock,
      policy: { baseMs: 500, capMs: 60_000 },
    });
    const stop = new AbortController();
    const running = o.run(stop.signal);
    // The healthy destination has each alert as soon as it is queued.
    // Alerts keep coming during the outage, one every 10 s of virtual time.
    for (let i = 0; i < 50; i++) {
      o.enqueue(alert(i));
      await clock.settle();
      expect(up.got).toHaveLength(i + 1);
      clock.t += 10_000;
    }
    while (o.queued() > 0) await clock.advance();
    stop.abort();
    await running;
    const ids = Array.from({ length: 50 }, (_, i) => `alert:violation:v${i}`);
    expect(up.got).toEqual(ids);
    expect(down.got).toEqual(ids);
    expect(clock.t - start).toBeGreaterThanOrEqual(TEN_MIN);
    // Capped backoff: the first try after recovery comes within one cap of it.
    expect(clock.t - start).toBeLessThan(TEN_MIN + 60_000);
    // The figures of this run (random fixed at 0.5, so each delay is 3/4 of its doubling):
    // 9 failed attempts, the 50 queued alerts all delivered 37.25 s after the outage ended.
    expect({ failed: down.calls() - 50, recoveredAfterS: (clock.t - start - TEN_MIN) / 1000 }).toEqual({
      failed: 9,
      recoveredAfterS: 37.25,
    });
    const file = JSON.parse(readFileSync(join(dir, "down.json"), "utf8"));
    expect(file.pending).toEqual([]);
    expect(file.delivered).toHaveLength(50);
  });
});
