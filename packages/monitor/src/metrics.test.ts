import { describe, expect, it } from "vitest";
import { basicAlertView } from "./alert-view.js";
import { monitorMetrics, serveMetrics } from "./metrics.js";
import { Outbox } from "./outbox/outbox.js";
import { fileStore } from "./state/file-store.js";

describe("the monitor's /metrics", () => {
  it("counts raised, delivered, retried and dead-lettered messages, and reads queue depth and age from the outbox", async () => {
    const m = monitorMetrics();
    let t = 1_000_000;
    const clock = { now: () => t, random: () => 0.5, sleep: async () => {} };
    const outbox = new Outbox({
      dir: null,
      routes: [
        { sink: { id: "up", type: "webhook", deliver: async () => ({ ok: true }) }, kinds: null },
        {
          sink: { id: "down", type: "slack", deliver: async () => ({ ok: false, retryable: true, error: "503" }) },
          kinds: null,
        },
        {
          sink: {
            id: "refusing",
            type: "pagerduty",
            deliver: async () => ({ ok: false, retryable: false, error: "400" }),
          },
          kinds: null,
        },
      ],
      view: basicAlertView,
      clock,
      onEvent: m.onOutboxEvent,
    });
    m.attach(fileStore(null, outbox));
    for (const id of ["a", "b"]) {
      const msg = { type: "alert" as const, kind: "violation", id, blockNumber: 1 };
      m.onMessage(msg);
      outbox.enqueue(msg);
    }
    await outbox.drainOnce();
    t += 42_000;
    const served = await serveMetrics(m.registry, 0);
    try {
      const text = await (await fetch(served.url)).text();
      expect(text).toContain('kusd_monitor_alerts_raised_total{kind="violation",type="alert"} 2');
      expect(text).toContain('kusd_monitor_delivered_total{destination="up",kind="violation"} 2');
      expect(text).toContain('kusd_monitor_retried_total{destination="down",kind="violation"} 1');
      expect(text).toContain('kusd_monitor_dead_lettered_total{destination="refusing",kind="violation"} 2');
      expect(text).toContain('kusd_monitor_queued{destination="down"} 2');
      expect(text).toContain('kusd_monitor_queued{destination="up"} 0');
      expect(text).toContain('kusd_monitor_oldest_undelivered_seconds{destination="down"} 42');
      expect((await fetch(served.url.replace("/metrics", "/other"))).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
