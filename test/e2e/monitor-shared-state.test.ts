/**
 * Monitors that share one PostgreSQL state (issue 42), as real `kusd-monitor` processes against
 * the devnet's indexer, with a webhook receiver and a PagerDuty receiver and a PostgreSQL server of
 * the test's own (so it can be stopped): two monitors deliver 50 violations exactly once to each
 * destination; one SIGKILLed mid-run loses nothing while 20 more happen, with a double only for the
 * delivery in flight and then under the same id; three started at once on an empty database
 * migrate once and alert once; the database stopped for 30 s leaves every monitor running, saying
 * so, and what happened meanwhile is delivered once it is back. Runs on the PostgreSQL pass.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weth9Abi } from "../../abis/index.js";
import { devnetKey } from "../../devnet/keys.js";
import { DELIVERY_HEADER } from "../../packages/monitor/src/index.js";
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from "../helpers/private-postgres.js";
import { type Receiver, startReceiver } from "../helpers/receivers/http-receiver.js";
import { startPagerDutyReceiver } from "../helpers/receivers/pagerduty.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const onPostgres = process.env.DATABASE_URL !== undefined && postgresBinDir() !== null;
const ROUTING_KEY = "R0UTINGKEY0123456789012345678901";

let pg: PrivatePostgres;
// Made at first use: a file whose tests are all skipped (the PGlite pass) runs no afterAll.
let made: string | null = null;
const scratch = () => (made ??= mkdtempSync(join(tmpdir(), "kusd-monitor-shared-")));
const children: ChildProcess[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  if (onPostgres) pg = await startPrivatePostgres();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await Promise.all(receivers.map((r) => r.close()));
  pg?.destroy();
  if (made) rmSync(made, { recursive: true, force: true });
});

/** A database of its own on the test's server, for one test's group of monitors. */
async function database(name: string): Promise<string> {
  const admin = postgres(pg.url, { onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return pg.url.replace(/\/postgres$/, `/${name}`);
}

/** The watch-only founder float sends 1,000 wei of WETH to an address no registry lists: a violation. */
async function violate(): Promise<Hex> {
  const wallet = s.wallet(d.accounts.hedgeWatchOnly!.privateKey);
  const hash = await wallet.writeContract({
    address: s.addr("weth"),
    abi: weth9Abi,
    functionName: "transfer",
    args: [devnetKey(`test:shared-state:${Date.now()}:${Math.random()}`).address, 1000n],
  });
  await s.client.waitForTransactionReceipt({ hash });
  return hash;
}

const until = async (cond: () => boolean | Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

type Destinations = { hook: Receiver; pd: Receiver };

async function destinations(delayMs = 0): Promise<Destinations> {
  const hook = await startReceiver(() => ({ status: 204 }), { delayMs });
  const pd = await startPagerDutyReceiver({ delayMs });
  receivers.push(hook, pd);
  return { hook, pd };
}

/** One configuration file for the group; each monitor gets its own --instance. */
function configFile(name: string, stateUrl: string, to: Destinations): string {
  const path = join(scratch(), `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      api: s.indexerUrl,
      state: stateUrl,
      group: name,
      pollMs: 200,
      retry: { baseDelayMs: 50, maxDelayMs: 1_000 },
      sinks: [
        { type: "webhook", url: `${to.hook.url}/hook`, secret: "shared-secret" },
        { type: "pagerduty", url: `${to.pd.url}/v2/enqueue`, routingKey: ROUTING_KEY },
      ],
    }),
  );
  return path;
}

type Monitor = { name: string; child: ChildProcess; output: () => string; metricsUrl: () => string | null };

function startMonitor(config: string, name: string): Monitor {
  const child = spawn(
    process.execPath,
    ["packages/monitor/bin/kusd-monitor.mjs", "--config", config, "--instance", name, "--metrics-port", "0"],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    },
  );
  children.push(child);
  let out = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (out += c));
  const metricsUrl = () => {
    const line = out.split("\n").find((l) => l.includes('"metrics"'));
    return line ? (JSON.parse(line).metrics as string) : null;
  };
  return { name, child, output: () => out, metricsUrl };
}

const metricsOf = async (m: Monitor) => {
  await until(() => m.metricsUrl() !== null, 20_000, `${m.name}'s metrics`);
  return (await fetch(m.metricsUrl()!)).text();
};

/** The group's cursor exists: the monitors took the head as their start, so what follows is news. */
async function groupStarted(stateUrl: string, group: string) {
  const sql = postgres(stateUrl, { onnotice: () => {} });
  try {
    await until(
      async () =>
        (await sql`select to_regclass('kusd_monitor.cursor') is not null as t`)[0]?.t === true &&
        (await sql`select 1 from kusd_monitor.cursor where "group" = ${group}`).length === 1,
      30_000,
      "the group's state",
    );
  } finally {
    await sql.end();
  }
  await new Promise((r) => setTimeout(r, 1_000)); // every monitor of the group is polling
}

/** Deliveries per violation transaction: the webhook by its body, PagerDuty by its custom details. */
function countsByTx(to: Destinations, txs: Hex[]) {
  const mine = new Set(txs);
  const count = (bodies: Array<{ txHash?: string; id?: string; delivery: string }>) => {
    const byTx = new Map<string, string[]>();
    for (const b of bodies)
      if (b.txHash && mine.has(b.txHash as Hex)) byTx.set(b.txHash, [...(byTx.get(b.txHash) ?? []), b.delivery]);
    return byTx;
  };
  const hook = count(
    to.hook.received.map((r) => ({ ...(r.body as { txHash?: string }), delivery: String(r.headers[DELIVERY_HEADER]) })),
  );
  const pd = count(
    to.pd.received.map((r) => {
      const b = r.body as { dedup_key: string; payload?: { custom_details?: { message?: { txHash?: string } } } };
      return { txHash: b.payload?.custom_details?.message?.txHash, delivery: b.dedup_key };
    }),
  );
  return { hook, pd };
}

const allDelivered = (to: Destinations, txs: Hex[]) => () => {
  const { hook, pd } = countsByTx(to, txs);
  return hook.size === txs.length && pd.size === txs.length;
};

/** Each transaction's deliveries: how many got 1, 2, ... (the note pastes these). */
const histogram = (byTx: Map<string, string[]>) => {
  const h: Record<number, number> = {};
  for (const ids of byTx.values()) h[ids.length] = (h[ids.length] ?? 0) + 1;
  return h;
};

async function stopAll(ms: Monitor[]) {
  for (const m of ms) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill("SIGTERM");
  const codes = await Promise.all(
    ms.map((m) =>
      m.child.exitCode !== null || m.child.signalCode !== null
        ? { code: m.child.exitCode, signal: m.child.signalCode }
        : new Promise<{ code: number | null; signal: string | null }>((r) =>
            m.child.once("exit", (code, signal) => r({ code, signal })),
          ),
    ),
  );
  return codes;
}

describe.runIf(onPostgres)("kusd-monitor with a shared PostgreSQL state", () => {
  it("two monitors, 50 violations: each delivered exactly once to each destination", { timeout: 180_000 }, async () => {
    const to = await destinations();
    const url = await database("two");
    const config = configFile("two", url, to);
    const ms = [startMonitor(config, "alpha"), startMonitor(config, "beta")];
    await groupStarted(url, "two");
    const txs: Hex[] = [];
    for (let i = 0; i < 50; i++) txs.push(await violate());
    await until(allDelivered(to, txs), 90_000, "50 violations at both destinations");
    await new Promise((r) => setTimeout(r, 1_500)); // a double would arrive by now
    const { hook, pd } = countsByTx(to, txs);
    const metrics = await Promise.all(ms.map(metricsOf));
    console.log(
      `two monitors, 50 violations: webhook ${JSON.stringify(histogram(hook))}, pagerduty ${JSON.stringify(histogram(pd))} (deliveries per violation: count)`,
    );
    for (const [i, m] of ms.entries())
      console.log(
        `${m.name}: ${metrics[i]!.split("\n")
          .filter((l) => /^kusd_monitor_(group_delivered|queued)\{/.test(l))
          .join("; ")}`,
      );
    expect(histogram(hook)).toEqual({ 1: 50 });
    expect(histogram(pd)).toEqual({ 1: 50 });
    // Every monitor reports the group's queues (empty) and who delivered what.
    for (const text of metrics) {
      expect(text).toContain('kusd_monitor_queued{destination="webhook"} 0');
      expect(text).toContain('kusd_monitor_queued{destination="pagerduty"} 0');
      expect(text).toContain("kusd_monitor_state_up 1");
      const delivered = [
        ...text.matchAll(/^kusd_monitor_group_delivered\{destination="webhook",monitor="(\w+)"\} (\d+)/gm),
      ];
      expect(delivered.reduce((n, m) => n + Number(m[2]), 0)).toBeGreaterThanOrEqual(50);
    }
    expect(await stopAll(ms)).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it("one of two SIGKILLed mid-run while 20 more violations happen: every one delivered, a double only in flight and under the same id", {
    timeout: 180_000,
  }, async () => {
    const to = await destinations(150); // slow: the kill lands mid-delivery
    const url = await database("killed");
    const config = configFile("killed", url, to);
    const ms = [startMonitor(config, "alpha"), startMonitor(config, "beta")];
    await groupStarted(url, "killed");
    const txs: Hex[] = [];
    for (let i = 0; i < 10; i++) txs.push(await violate());
    await until(() => countsByTx(to, txs).hook.size >= 3, 30_000, "the first deliveries");
    // Kill the monitor that delivers (it holds the destinations' locks) while it does.
    const sql = postgres(url, { onnotice: () => {} });
    const [last] =
      await sql`select done_by from kusd_monitor.outbox where status = 'delivered' order by done_at desc limit 1`;
    await sql.end();
    const victim = ms.find((m) => m.name === last?.done_by) ?? ms[0]!;
    const survivor = ms.find((m) => m !== victim)!;
    const more = (async () => {
      for (let i = 0; i < 20; i++) txs.push(await violate());
    })();
    await new Promise((r) => setTimeout(r, 300));
    victim.child.kill("SIGKILL");
    await more;
    await until(allDelivered(to, txs), 90_000, "all 30 at both destinations");
    await new Promise((r) => setTimeout(r, 1_500));
    const { hook, pd } = countsByTx(to, txs);
    console.log(
      `SIGKILL of ${victim.name} mid-run, 30 violations: webhook ${JSON.stringify(histogram(hook))}, pagerduty ${JSON.stringify(histogram(pd))}`,
    );
    for (const byTx of [hook, pd]) {
      expect(byTx.size).toBe(30);
      const doubles = [...byTx.values()].filter((ids) => ids.length > 1);
      // At most the one delivery in flight at the kill, and then under the same id.
      expect(doubles.length).toBeLessThanOrEqual(1);
      for (const ids of doubles) expect(new Set(ids).size).toBe(1);
    }
    expect(await stopAll([survivor])).toEqual([{ code: 0, signal: null }]);
  });

  it("three monitors started at once on an empty database: one migration, each alert once", {
    timeout: 120_000,
  }, async () => {
    const to = await destinations();
    const url = await database("three");
    const config = configFile("three", url, to);
    const ms = ["alpha", "beta", "gamma"].map((n) => startMonitor(config, n));
    await groupStarted(url, "three");
    const sql = postgres(url, { onnotice: () => {} });
    const migrations = await sql`select version, applied_by from kusd_monitor.migration`;
    await sql.end();
    expect(migrations).toHaveLength(1);
    const txs: Hex[] = [];
    for (let i = 0; i < 5; i++) txs.push(await violate());
    await until(allDelivered(to, txs), 60_000, "5 violations at both destinations");
    await new Promise((r) => setTimeout(r, 1_500));
    const { hook, pd } = countsByTx(to, txs);
    expect(histogram(hook)).toEqual({ 1: 5 });
    expect(histogram(pd)).toEqual({ 1: 5 });
    for (const m of ms) expect(m.output()).not.toMatch(/"type":"(error|warning)"/);
    expect(await stopAll(ms)).toEqual(ms.map(() => ({ code: 0, signal: null })));
  });

  it("a monitor of the group configured otherwise says so, as an error line", { timeout: 60_000 }, async () => {
    const to = await destinations();
    const url = await database("differs");
    const first = startMonitor(configFile("differs", url, to), "alpha");
    await groupStarted(url, "differs");
    // The same group, but redemptions too: the group's outbox would get kinds the others never raise.
    const other = join(scratch(), "differs-other.json");
    writeFileSync(
      other,
      JSON.stringify({
        ...JSON.parse(readFileSync(configFile("differs", url, to), "utf8")),
        alerts: { psmPauses: true },
      }),
    );
    const second = startMonitor(other, "beta");
    await until(() => second.output().includes('"event":"group_config_differs"'), 20_000, "beta says so");
    const line = JSON.parse(
      second
        .output()
        .split("\n")
        .find((l) => l.includes("group_config_differs"))!,
    );
    expect(line).toMatchObject({ type: "error", group: "differs", instance: "beta", setBy: "alpha" });
    expect(line.ours).not.toBe(line.theirs);
    expect(first.output()).not.toContain("group_config_differs");
    expect(await stopAll([first, second])).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it("a reorg that removes an alerted violation: one retraction per destination, under its own id", {
    timeout: 120_000,
  }, async () => {
    const to = await destinations();
    const url = await database("reorg");
    const config = configFile("reorg", url, to);
    const ms = [startMonitor(config, "alpha"), startMonitor(config, "beta")];
    await groupStarted(url, "reorg");
    const snapshot = await s.client.request({ method: "evm_snapshot" as never });
    const tx = await violate();
    await until(allDelivered(to, [tx]), 30_000, "the alert");
    const alertId = (
      to.hook.received.find((r) => (r.body as { txHash?: string }).txHash === tx)!.body as { id: string }
    ).id;
    // The block with the violation is replaced by a longer fork without it.
    await s.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    for (let i = 0; i < 4; i++) await s.client.request({ method: "evm_mine" as never });
    const retractions = (r: Receiver, key: (b: Record<string, unknown>) => boolean) =>
      r.received.filter((x) => key(x.body as Record<string, unknown>));
    const hookRetractions = () => retractions(to.hook, (b) => b.type === "retraction" && b.id === alertId);
    const pdResolves = () =>
      retractions(to.pd, (b) => b.event_action === "resolve" && String(b.dedup_key).endsWith(alertId));
    await until(() => hookRetractions().length > 0 && pdResolves().length > 0, 30_000, "the retraction");
    await new Promise((r) => setTimeout(r, 1_500));
    expect(hookRetractions()).toHaveLength(1);
    expect(String(hookRetractions()[0]!.headers[DELIVERY_HEADER])).toBe(`retraction:violation:${alertId}`);
    expect(pdResolves()).toHaveLength(1);
    expect(await stopAll(ms)).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it("PostgreSQL stopped for 30 s: both keep running and say so; what happened meanwhile is delivered once it is back", {
    timeout: 180_000,
  }, async () => {
    const to = await destinations();
    const url = await database("outage");
    const config = configFile("outage", url, to);
    const ms = [startMonitor(config, "alpha"), startMonitor(config, "beta")];
    await groupStarted(url, "outage");
    const before = [await violate(), await violate()];
    await until(allDelivered(to, before), 30_000, "the first two");
    pg.stop();
    const stoppedAt = Date.now();
    const during: Hex[] = [];
    for (let i = 0; i < 5; i++) during.push(await violate());
    await until(() => ms.every((m) => m.output().includes('"event":"state_unreachable"')), 20_000, "both say so");
    const down = await Promise.all(ms.map(metricsOf));
    for (const text of down) expect(text).toContain("kusd_monitor_state_up 0");
    await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - stoppedAt))));
    for (const m of ms) expect(m.child.exitCode).toBeNull();
    expect(countsByTx(to, during).hook.size).toBe(0); // nothing could be queued meanwhile
    pg.start();
    await until(allDelivered(to, during), 60_000, "the outage's violations once it is back");
    await new Promise((r) => setTimeout(r, 1_500));
    const { hook, pd } = countsByTx(to, [...before, ...during]);
    console.log(
      `PostgreSQL down 30 s, 5 violations meanwhile: webhook ${JSON.stringify(histogram(hook))}, pagerduty ${JSON.stringify(histogram(pd))}`,
    );
    expect(histogram(hook)).toEqual({ 1: 7 });
    expect(histogram(pd)).toEqual({ 1: 7 });
    await until(() => ms.every((m) => m.output().includes('"event":"state_reachable"')), 20_000, "both say it is back");
    for (const text of await Promise.all(ms.map(metricsOf))) expect(text).toContain("kusd_monitor_state_up 1");
    expect(await stopAll(ms)).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });
});
