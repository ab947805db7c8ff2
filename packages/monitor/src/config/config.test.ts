import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseMonitorArgs, runMonitorCli } from "../cli.js";
import { ConfigError, parseMonitorConfig } from "./load.js";
import { monitorOptionsOf } from "./to-options.js";

const dir = mkdtempSync(join(tmpdir(), "kusd-monitor-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The configuration's reference syntax, written once (a literal "${...}" reads as a template mistake to the linter). */
const ref = (name: string) => `\${${"name"}}`.replace("name", name);
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const cli = async (argv: string[], env: Record<string, string> = {}) => {
  let out = "";
  const code = await runMonitorCli(argv, { write: (s) => (out += s), env });
  return { code, out };
};

describe("the monitor's configuration file", () => {
  it("takes the issue's minimal form: every registry violation to Slack and PagerDuty", () => {
    const c = parseMonitorConfig(
      {
        api: "http://localhost:42069",
        sinks: [
          { type: "slack", url: "https://hooks.slack.test/services/T/B/X" },
          { type: "pagerduty", url: "http://127.0.0.1:9/v2/enqueue", routingKey: "R0UT1NGKEY" },
        ],
      },
      {},
    );
    const o = monitorOptionsOf(c, false, { HOME: "/home/ops" });
    expect(o.kinds).toEqual(["violation"]);
    expect(o.sinks?.map((s) => [s.type, s.kinds])).toEqual([
      ["slack", undefined],
      ["pagerduty", undefined],
    ]);
    expect(o).toMatchObject({
      // Its own directory under the user's state home, never the working directory.
      statePath: "/home/ops/.local/state/kusd-monitor/localhost_42069/state.json",
      outboxDir: "/home/ops/.local/state/kusd-monitor/localhost_42069/outbox",
      pollMs: 1_000,
      fromBlock: "head",
      baseDelayMs: 500,
    });
  });

  it("a shared state: a postgres:// URL (its password from the environment), the group and this monitor's name", () => {
    const c = parseMonitorConfig(
      {
        api: "https://kusd.example.org",
        state: `postgres://monitor:${ref("MONITOR_DB_PASSWORD")}@db.internal:5432/alerts`,
        group: "kusd-mainnet",
        instance: "eu-1",
        sinks: [{ type: "stdout" }],
      },
      { MONITOR_DB_PASSWORD: "pw" },
    );
    expect(monitorOptionsOf(c, false, { HOME: "/home/ops" })).toMatchObject({
      stateUrl: "postgres://monitor:pw@db.internal:5432/alerts",
      statePath: null,
      outboxDir: null,
      group: "kusd-mainnet",
      instance: "eu-1",
    });
    // Without a group, monitors of one database share the group "default".
    expect(parseMonitorConfig({ api: "http://x", sinks: [{ type: "stdout" }] }, {}).group).toBe("default");
    expect(() => parseMonitorConfig({ api: "http://x", group: "no spaces", sinks: [{ type: "stdout" }] }, {})).toThrow(
      /group/,
    );
  });

  it("reads secrets from the environment by reference, and names a missing one", () => {
    const raw = { api: "http://x", sinks: [{ type: "webhook", url: "http://r/hook", secret: ref("HOOK_SECRET") }] };
    expect(parseMonitorConfig(raw, { HOOK_SECRET: "s3" }).sinks[0]).toMatchObject({ secret: "s3" });
    expect(() => parseMonitorConfig(raw, {})).toThrow(/sinks\.0\.secret: environment variable HOOK_SECRET is not set/);
  });

  it("names each problem by its path", () => {
    try {
      parseMonitorConfig(
        {
          api: "ftp://x",
          alerts: { backingRatio: { below: "-1" } },
          sinks: [{ type: "pagerduty" }, { type: "sms", url: "http://x" }],
        },
        {},
      );
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).details.problems.join("\n");
      expect(problems).toMatch(/^api: must be an http\(s\) URL/m);
      expect(problems).toMatch(/^alerts\.backingRatio\.below: is a ratio/m);
      expect(problems).toMatch(/^sinks\.0\.routingKey:/m);
      expect(problems).toMatch(/^sinks\.1\.type:/m);
    }
    expect(() => parseMonitorConfig({ api: "http://x", sinks: [{ type: "stdout" }, { type: "stdout" }] }, {})).toThrow(
      /sinks\.1\.id: stdout is already used/,
    );
  });

  it("--check: exit 0 with a summary, exit 2 with the reason", async () => {
    const good = file(
      "good.yaml",
      [
        "api: http://localhost:42069",
        "alerts:",
        "  redemptions: { minKusd: '1000' }",
        "  backingRatio: { below: '0.995' }",
        "sinks:",
        "  - type: stdout",
        `  - { type: webhook, id: ops, url: 'http://127.0.0.1:9/hook', secret: '${ref("KUSD_MONITOR_SECRET")}', kinds: [violation] }`,
      ].join("\n"),
    );
    expect(await cli(["--config", good, "--check"], { KUSD_MONITOR_SECRET: "s" })).toEqual({
      code: 0,
      out: "ok: http://localhost:42069, kinds violation, redemption, backing_ratio; stdout (stdout), ops (webhook: violation)\n",
    });
    const missing = await cli(["--config", good, "--check"]);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/environment variable KUSD_MONITOR_SECRET is not set/);
    const json = file("bad.json", JSON.stringify({ api: "http://x", sinks: [] }));
    expect(await cli(["--config", json, "--check"])).toEqual({
      code: 2,
      out: "error: sinks: nowhere to deliver: give at least one destination\n",
    });
    expect((await cli(["--config", join(dir, "absent.yaml"), "--check"])).out).toMatch(/ENOENT/);
  });

  it("the flags build the same configuration", () => {
    const o = parseMonitorArgs(
      [
        "--api",
        "http://x/",
        "--stdout",
        "--webhook",
        "http://r/1",
        "--webhook",
        "http://r/2",
        "--redemptions-above",
        "5",
      ],
      { KUSD_MONITOR_SECRET: "s" },
    );
    expect(o.apiUrl).toBe("http://x");
    expect(o.kinds).toEqual(["violation", "redemption"]);
    expect(o.sinks?.map((s) => s.id ?? s.type)).toEqual(["stdout", "webhook", "webhook-2"]);
  });
});
