/**
 * `kusd-monitor`: alerts on registry violations (and opted-in triggers) as JSON lines on stdout
 * and/or signed webhooks. See monitor.ts and state/store.ts for the delivery guarantees.
 */
import { parseArgs } from "node:util";
import { describeIssues, loadMonitorConfig } from "./config/load.js";
import { type MonitorConfig, MonitorConfigSchema } from "./config/schema.js";
import { buildSink } from "./config/sink-registry.js";
import { monitorOptionsOf } from "./config/to-options.js";
import { monitorMetrics, serveMetrics } from "./metrics.js";
import { type MonitorOptions, runMonitor } from "./monitor.js";

/** `--help`: not an error, but parsing stops there. */
class HelpRequested extends Error {}

export const MONITOR_USAGE = `Usage: kusd-monitor --config <file.yaml|json> [--check] [--once] [--metrics-port N]
   or: kusd-monitor --api <site URL> [--webhook <URL>]... [--stdout] [--secret <s> | env KUSD_MONITOR_SECRET]
  [--confirmations N (0)] [--reorg-window N (64)] [--poll-ms N (1000)]
  [--state-dir <dir> | --state <file> | --state postgres://… [--group <name>] [--instance <name>]]
  [--minter-grants] [--minter-role-changes] [--psm-pauses] [--redemptions-above <kUSD>] [--backing-ratio-below <ratio>]
  [--statement-max-age <seconds>] [--venue-unreadable-after <seconds>] [--risk-triggers]
  [--from-block N | head] [--base-delay-ms N (500)] [--max-delay-ms N (300000)] [--metrics-port N] [--once] [--check]

Watches the API's event feeds and delivers one alert per registry violation (and, when asked,
per MINTER_ROLE grant or revocation, PSM pause, redemption above an amount, or block where the
backing ratio crossed a threshold) as JSON lines on stdout and/or HMAC-signed webhooks (also
Standard Webhooks headers), at least once per event (a repeat keeps its delivery id, for the
receiver to drop); a reorg that undoes an event sends a retraction. A stale signed statement
or an unreadable venue is alerted once it has lasted its limit, and resolved when it ends.
Progress is kept in a state directory (--state-dir; default ~/.local/state/kusd-monitor/<api
host_port>, under $XDG_STATE_HOME when set), and every alert is first written to a durable outbox
per destination (<dir>/outbox/), so a restart resumes where it stopped. --state <file> keeps the
progress in that file instead, its outbox in <file>.outbox/. --state postgres://… keeps both in
PostgreSQL, shared by every monitor of the same --group (default "default"): run two or more,
on different machines, and each alert is queued once and delivered once per destination by
whichever monitor holds that destination (docs/monitoring.md). Each destination is
delivered in order on its own, retried with capped, jittered backoff for as long as it takes:
one that is down delays no other, and the monitor never gives up on it.

  --config <file>         everything below, and destinations with the kinds each takes, in one
                          YAML or JSON file; secrets as "\${ENV_NAME}" (docs/monitoring.md)
  --check                 validate the configuration (file or flags), print it in short, exit 0 or 2
  --metrics-port N        serve Prometheus metrics on http://127.0.0.1:N/metrics
  --api <URL>             the site serving /api (e.g. http://localhost:42069)
  --stdout                print alerts as JSON lines
  --webhook <URL>         POST each alert here (repeatable); needs --secret or KUSD_MONITOR_SECRET
  --confirmations N       alert only once an event is N blocks deep
  --minter-grants         MINTER_ROLE grants (kind minter_grant)
  --minter-role-changes   MINTER_ROLE grants and revocations (kind minter_role_change)
  --psm-pauses            PSM pauses (kind psm_pause)
  --redemptions-above K   redemptions of at least K kUSD (kind redemption)
  --backing-ratio-below R the block where psmUSDC / outstanding kUSD fell below R, and where it
                          came back (kind backing_ratio, direction below | restored)
  --statement-max-age S   the latest signed statement is older than S seconds (kind statement_stale)
  --venue-unreadable-after S
                          the report has not read the venue for S seconds (kind venue_unreadable)
  --risk-triggers         a trigger of /api/risk-status leaving its safe state (kind trigger) and a
                          new gap (kind gap), dated to the block it flipped at (changedAtBlock),
                          resolved when it ends, retracted if a reorg undid it
  --base-delay-ms N       first retry delay of a failed delivery; doubles up to --max-delay-ms
  --once                  one poll and one delivery attempt of everything queued, then exit
  -h, --help              print this help

Exit codes:
  0  stopped (Ctrl-C or SIGTERM, after the delivery under way), or --once delivered everything
  2  usage error or invalid configuration, or (--once) the poll failed
  3  (--once only) something is still queued for a destination; the next run delivers it
`;

/** The arguments as the configuration they describe (a file's, or the one the flags build), and --check. */
export function parseMonitorArgs(argv: string[], env: Readonly<Record<string, string | undefined>>): MonitorOptions {
  return parseMonitorCommand(argv, env).options;
}

export function parseMonitorCommand(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
): { options: MonitorOptions; config: MonitorConfig; check: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      api: { type: "string" },
      webhook: { type: "string", multiple: true },
      stdout: { type: "boolean" },
      secret: { type: "string" },
      confirmations: { type: "string" },
      "reorg-window": { type: "string" },
      "poll-ms": { type: "string" },
      state: { type: "string" },
      "state-dir": { type: "string" },
      group: { type: "string" },
      instance: { type: "string" },
      "minter-grants": { type: "boolean" },
      "minter-role-changes": { type: "boolean" },
      "psm-pauses": { type: "boolean" },
      "redemptions-above": { type: "string" },
      "backing-ratio-below": { type: "string" },
      "statement-max-age": { type: "string" },
      "venue-unreadable-after": { type: "string" },
      "risk-triggers": { type: "boolean" },
      "from-block": { type: "string" },
      "base-delay-ms": { type: "string" },
      "max-delay-ms": { type: "string" },
      "metrics-port": { type: "string" },
      config: { type: "string" },
      check: { type: "boolean" },
      once: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) throw new HelpRequested();
  const metricsPort = values["metrics-port"];
  if (metricsPort !== undefined && !/^\d{1,5}$/.test(metricsPort)) throw new Error("--metrics-port is a port number");
  if (values.config) {
    const config = loadMonitorConfig(values.config, env);
    if (metricsPort !== undefined) config.metricsPort = Number(metricsPort);
    if (values.instance !== undefined) config.instance = values.instance; // one file, several monitors
    return { config, options: monitorOptionsOf(config, !!values.once, env), check: !!values.check };
  }
  const int = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d{1,9}$/.test(raw)) throw new Error(`--${name} must be a non-negative integer`);
    return Number(raw);
  };
  if (!values.api) throw new Error("--api is required");
  const webhooks = values.webhook ?? [];
  if (!values.stdout && webhooks.length === 0) throw new Error("nowhere to deliver: give --stdout and/or --webhook");
  const secret = values.secret ?? env.KUSD_MONITOR_SECRET ?? "";
  if (webhooks.length && !secret) throw new Error("webhooks are signed: give --secret or KUSD_MONITOR_SECRET");
  if (values["redemptions-above"] !== undefined && !/^\d{1,15}(\.\d{1,18})?$/.test(values["redemptions-above"]))
    throw new Error("--redemptions-above is a kUSD amount");
  const below = values["backing-ratio-below"];
  if (below !== undefined && !/^\d{1,3}(\.\d{1,8})?$/.test(below))
    throw new Error("--backing-ratio-below is a ratio such as 1 or 0.995");
  const from = values["from-block"];
  // The flags build the configuration a file would hold, validated by the same schema.
  const raw = {
    api: values.api,
    alerts: {
      minterGrants: !!values["minter-grants"],
      minterRoleChanges: !!values["minter-role-changes"],
      psmPauses: !!values["psm-pauses"],
      ...(values["redemptions-above"] !== undefined && { redemptions: { minKusd: values["redemptions-above"] } }),
      ...(below !== undefined && { backingRatio: { below } }),
      ...(values["statement-max-age"] !== undefined && {
        statementMaxAgeSeconds: int("statement-max-age", values["statement-max-age"], 0),
      }),
      ...(values["venue-unreadable-after"] !== undefined && {
        venueUnreadableAfterSeconds: int("venue-unreadable-after", values["venue-unreadable-after"], 0),
      }),
      riskTriggers: !!values["risk-triggers"],
    },
    confirmations: int("confirmations", values.confirmations, 0),
    reorgWindow: int("reorg-window", values["reorg-window"], 64),
    pollMs: int("poll-ms", values["poll-ms"], 1_000),
    ...(values.state !== undefined && { state: values.state }),
    ...(values["state-dir"] !== undefined && { stateDir: values["state-dir"] }),
    ...(values.group !== undefined && { group: values.group }),
    ...(values.instance !== undefined && { instance: values.instance }),
    fromBlock: from === undefined || from === "head" ? "head" : int("from-block", from, 0),
    retry: {
      baseDelayMs: Math.max(1, int("base-delay-ms", values["base-delay-ms"], 500)),
      maxDelayMs: Math.max(1, int("max-delay-ms", values["max-delay-ms"], 300_000)),
    },
    ...(metricsPort !== undefined && { metricsPort: Number(metricsPort) }),
    sinks: [
      ...(values.stdout ? [{ type: "stdout" }] : []),
      ...webhooks.map((url, i) => ({ type: "webhook", id: i === 0 ? "webhook" : `webhook-${i + 1}`, url, secret })),
    ],
  };
  const parsed = MonitorConfigSchema.safeParse(raw);
  if (!parsed.success) throw new Error(describeIssues(parsed.error).join("; "));
  return { config: parsed.data, options: monitorOptionsOf(parsed.data, !!values.once, env), check: !!values.check };
}

export async function runMonitorCli(
  argv: string[],
  io: { write: (s: string) => void; signal?: AbortSignal; env: Readonly<Record<string, string | undefined>> },
): Promise<number> {
  let command: ReturnType<typeof parseMonitorCommand>;
  try {
    command = parseMonitorCommand(argv, io.env);
    // Every destination must be buildable (its type available here) before anything runs.
    for (const c of command.config.sinks) buildSink(c, { write: () => {} });
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.write(MONITOR_USAGE);
      return 0;
    }
    io.write(`error: ${(e as Error).message}\n${argv.includes("--check") ? "" : MONITOR_USAGE}`);
    return 2;
  }
  if (command.check) {
    const { config } = command;
    io.write(
      `ok: ${config.api}, kinds ${command.options.kinds.join(", ")}; ${config.sinks
        .map((s) => `${s.id ?? s.type} (${s.type}${s.kinds ? `: ${s.kinds.join(", ")}` : ""})`)
        .join(", ")}\n`,
    );
    return 0;
  }
  const port = command.options.metricsPort;
  if (port == null) return runMonitor(command.options, io);
  const metrics = monitorMetrics();
  const served = await serveMetrics(metrics.registry, port);
  io.write(`${JSON.stringify({ type: "info", metrics: served.url })}\n`);
  try {
    return await runMonitor(command.options, {
      ...io,
      onMessage: metrics.onMessage,
      onOutboxEvent: metrics.onOutboxEvent,
      onStore: metrics.attach,
    });
  } finally {
    await served.close();
  }
}
