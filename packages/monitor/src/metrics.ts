/**
 * The monitor's Prometheus metrics, in a Registry of its own (not prom-client's global one, so
 * nothing else in the process leaks into it): alerts raised by kind, deliveries, retries and dead
 * letters per destination, and, read from the store when scraped, what each destination has
 * queued and how old its oldest undelivered message is (the whole group's, with a shared
 * PostgreSQL state), which monitor of the group delivered how many, and whether the state's
 * database answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, Gauge, Registry } from "prom-client";
import type { MonitorMessage } from "./deliver.js";
import type { OutboxEvent } from "./outbox/destination-queue.js";
import type { PostgresStore } from "./state/postgres-store.js";
import type { MonitorStore, QueueStats } from "./state/store.js";

export function monitorMetrics() {
  const registry = new Registry();
  let store: MonitorStore | null = null;
  /** One read of the queues per scrape, shared by the gauges that show it. */
  let scrape: Promise<QueueStats[]> | null = null;
  const stats = () => {
    scrape ??= (store?.stats() ?? Promise.resolve([]))
      .catch(() => [])
      .finally(() => setTimeout(() => (scrape = null), 0));
    return scrape;
  };
  const raised = new Counter({
    name: "kusd_monitor_alerts_raised_total",
    help: "Messages the monitor raised, by kind and type (alert, retraction, resolved)",
    labelNames: ["kind", "type"],
    registers: [registry],
  });
  const counter = (name: string, help: string) =>
    new Counter({ name, help, labelNames: ["destination", "kind"], registers: [registry] });
  const delivered = counter("kusd_monitor_delivered_total", "Messages a destination accepted");
  const retried = counter("kusd_monitor_retried_total", "Failed attempts that will be retried");
  const dead = counter("kusd_monitor_dead_lettered_total", "Messages a destination refused (not retried)");
  new Gauge({
    name: "kusd_monitor_queued",
    help: "Messages waiting in a destination's outbox",
    labelNames: ["destination"],
    registers: [registry],
    async collect() {
      for (const s of await stats()) this.set({ destination: s.destination }, s.queued);
    },
  });
  new Gauge({
    name: "kusd_monitor_oldest_undelivered_seconds",
    help: "Age of the oldest message a destination has not accepted yet (0 when its queue is empty)",
    labelNames: ["destination"],
    registers: [registry],
    async collect() {
      for (const s of await stats()) this.set({ destination: s.destination }, s.oldestAgeMs / 1000);
    },
  });
  new Gauge({
    name: "kusd_monitor_state_up",
    help: "1 while the monitor's state store answers (a shared PostgreSQL state: 0 while it is unreachable)",
    registers: [registry],
    collect() {
      this.set(store?.kind === "postgres" ? ((store as PostgresStore).up ? 1 : 0) : 1);
    },
  });
  new Gauge({
    name: "kusd_monitor_group_delivered",
    help: "Messages the monitors of this shared state's group delivered, by destination and the monitor that delivered them",
    labelNames: ["destination", "monitor"],
    registers: [registry],
    async collect() {
      this.reset();
      if (store?.kind !== "postgres") return;
      const rows = await (store as PostgresStore).deliveredBy().catch(() => []);
      for (const r of rows) this.set({ destination: r.destination, monitor: r.instance }, r.delivered);
    },
  });
  return {
    registry,
    attach: (s: MonitorStore) => {
      store = s;
    },
    onMessage: (m: MonitorMessage) => raised.inc({ kind: m.kind, type: m.type }),
    onOutboxEvent: (e: OutboxEvent) => {
      const counterOf = { delivered, retried, dead }[e.type];
      counterOf.inc({ destination: e.destination, kind: e.kind });
    },
  };
}

/** GET /metrics on 127.0.0.1:port (0: a free port); resolves once listening. */
export async function serveMetrics(
  registry: Registry,
  port: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") return res.writeHead(404).end();
    res.setHeader("content-type", registry.contentType);
    res.end(await registry.metrics());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
