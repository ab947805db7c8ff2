/**
 * The outbox across a hard crash: `kusd-monitor` (the bin, in its own process) is SIGKILLed while
 * it delivers to a slow receiver, restarted over the same state, and stopped with SIGTERM. The
 * receiver must have every alert at least once, and exactly once after deduping on the delivery
 * id; the restart sends only what the crash left undelivered (at most the one in flight twice).
 * And the issue's minimal configuration file (Slack and PagerDuty, the key from the environment)
 * run as the bin with --metrics-port: PagerDuty gets every violation while Slack fails, Slack
 * gets them all once it answers again, each exactly once, and /metrics counts it.
 * The API is a stand-in serving the violation listing, so the test owns the alerts' timing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DELIVERY_HEADER } from "../../packages/monitor/src/index.js";
import { startPagerDutyReceiver } from "../helpers/receivers/pagerduty.js";
import { startSlackReceiver } from "../helpers/receivers/slack.js";

const N = 20;
const HEAD = 200;
const dir = mkdtempSync(join(tmpdir(), "kusd-monitor-outbox-"));
const servers: Server[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

async function listen(handler: Parameters<typeof createServer>[1]) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The violation listing the monitor polls: N violations at blocks 101..100+N, head fixed. */
const violations = Array.from({ length: N }, (_, i) => ({ id: `0xv${i}`, blockNumber: 101 + i, txHash: `0xt${i}` }));
const apiUrl = () =>
  listen((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const from = Number(u.searchParams.get("fromBlock"));
    const to = Number(u.searchParams.get("toBlock"));
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        indexedHead: { blockNumber: HEAD },
        violations: violations.filter((v) => v.blockNumber >= from && v.blockNumber <= to),
        next: null,
      }),
    );
  });

/** A receiver that takes 150 ms per delivery, so a kill lands mid-delivery. */
const got: string[] = [];
const receiverUrl = () =>
  listen((req, res) => {
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        got.push(String(req.headers[DELIVERY_HEADER]));
        res.writeHead(204).end();
      }, 150),
    );
  });

const until = async (cond: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
};

const flags = (api: string, hook: string) => [
  ...["--api", api, "--webhook", hook, "--secret", "s", "--state", join(dir, "state.json")],
  ...["--from-block", "1", "--poll-ms", "100", "--base-delay-ms", "50"],
];

function startMonitor(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["packages/monitor/bin/kusd-monitor.mjs", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (out += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return { child, exited, output: () => out };
}

describe("kusd-monitor's outbox", () => {
  it("loses nothing to kill -9 mid-delivery: the restart resumes from the outbox; SIGTERM exits 0", async () => {
    const api = await apiUrl();
    const hook = `${await receiverUrl()}/hook`;
    const first = startMonitor(flags(api, hook));
    await until(() => got.length >= 5, 30_000);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const beforeRestart = got.length;
    expect(beforeRestart).toBeLessThan(N); // the kill landed mid-delivery

    const second = startMonitor(flags(api, hook));
    const ids = violations.map((v) => `alert:violation:${v.id}`);
    await until(() => ids.every((id) => got.includes(id)), 30_000);
    second.child.kill("SIGTERM");
    const stopped = await second.exited;
    expect(stopped, second.output()).toEqual({ code: 0, signal: null });

    expect(new Set(got)).toEqual(new Set(ids)); // every alert, nothing else
    // In order, and repeated at most once: the delivery the kill interrupted.
    expect(got.length - ids.length).toBeLessThanOrEqual(1);
    expect([...new Set(got)]).toEqual(ids);
    expect(readdirSync(join(dir, "state.json.outbox"))).toEqual(["webhook.json"]);
  });

  it("the issue's minimal configuration: every violation to Slack and PagerDuty; Slack down for a while delays only Slack", async () => {
    const api = await apiUrl();
    const slack = await startSlackReceiver();
    const pd = await startPagerDutyReceiver();
    try {
      slack.failNext(8, { status: 503, body: "service unavailable" }); // about 2 s of backoff, capped at 400 ms
      const config = join(dir, "minimal.json");
      writeFileSync(
        config,
        JSON.stringify({
          api,
          state: join(dir, "minimal-state.json"),
          fromBlock: 1,
          pollMs: 100,
          retry: { baseDelayMs: 50, maxDelayMs: 400 },
          sinks: [
            { type: "slack", url: `${slack.url}/services/T0/B0/X` },
            {
              type: "pagerduty",
              url: `${pd.url}/v2/enqueue`,
              routingKey: `\${PD_ROUTING_KEY}` /* from the environment */,
            },
          ],
        }),
      );
      const m = startMonitor(["--config", config, "--metrics-port", "0"], {
        PD_ROUTING_KEY: "R0UTINGKEY0123456789012345678901",
      });
      // PagerDuty has every violation while Slack still fails.
      await until(() => pd.received.length >= N, 30_000);
      expect(slack.received.length).toBeLessThan(N);
      const metricsUrl = () =>
        JSON.parse(
          m
            .output()
            .split("\n")
            .find((l) => l.includes('"metrics"')) ?? "{}",
        ).metrics;
      await until(() => !!metricsUrl(), 10_000);
      await until(() => slack.received.length >= N, 30_000);
      const metrics = await (await fetch(metricsUrl())).text();
      m.child.kill("SIGTERM");
      expect(await m.exited, m.output()).toEqual({ code: 0, signal: null });
      // Exactly once each: PagerDuty by dedup_key, Slack by count (and PagerDuty's keys are the violations').
      const keys = pd.received.map((r) => (r.body as { dedup_key: string }).dedup_key);
      expect(new Set(keys).size).toBe(N);
      expect(keys).toHaveLength(N);
      expect(slack.received).toHaveLength(N);
      expect(metrics).toContain('kusd_monitor_alerts_raised_total{kind="violation",type="alert"} 20');
      expect(metrics).toContain('kusd_monitor_delivered_total{destination="pagerduty",kind="violation"} 20');
      expect(metrics).toContain('kusd_monitor_retried_total{destination="slack",kind="violation"} 8');
    } finally {
      await slack.close();
      await pd.close();
    }
  });
});
