import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNewHead } from "./head-wait.js";

let server: Server;
let url = "";
let asked = 0;
beforeAll(async () => {
  // The service's long poll, answering at once: a new head every time it is asked.
  let head = 100;
  server = createServer((_req, res) => {
    asked++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ indexedHead: { blockNumber: ++head } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("waitForNewHead", () => {
  it("returns the head the service answers", async () => {
    const head = await waitForNewHead(url, 100, 1_000, new AbortController().signal);
    expect(head).toBeGreaterThan(100);
  });

  it("leaves no listener on the monitor's signal however many blocks it waits for", async () => {
    const monitor = new AbortController();
    for (let i = 0; i < 200; i++) await waitForNewHead(url, null, 0, monitor.signal);
    expect(getEventListeners(monitor.signal, "abort")).toHaveLength(0);
  });

  it("asks nothing and waits for nothing once the monitor has stopped", async () => {
    const monitor = new AbortController();
    monitor.abort();
    const before = asked;
    const started = Date.now();
    expect(await waitForNewHead(url, 7, 60_000, monitor.signal)).toBe(7);
    expect(asked).toBe(before);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
