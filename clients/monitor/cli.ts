/**
 * `kusd-monitor`: alerts on registry violations (and opted-in triggers) as JSON lines on stdout
 * and/or signed webhooks. See api/monitor/monitor.ts for the delivery guarantees.
 */
import { parseArgs } from "node:util";
import { type FeedKind, type MonitorOptions, runMonitor } from "./monitor.js";

/** `--help`: not an error, but parsing stops there. */
class HelpRequested extends Error {}

export const MONITOR_USAGE = `Usage: kusd-monitor --api <site URL> [--webhook <URL>]... [--stdout] [--secret <s> | env KUSD_MONITOR_SECRET]
  [--confirmations N (0)] [--reorg-window N (64)] [--poll-ms N (1000)] [--state <file> (.kusd-monitor.json)]
  [--minter-grants] [--minter-role-changes] [--psm-pauses] [--redemptions-above <kUSD>] [--backing-ratio-below <ratio>]
  [--statement-max-age <seconds>] [--venue-unreadable-after <seconds>] [--risk-triggers]
  [--from-block N | head] [--base-delay-ms N (500)] [--max-delay-ms N (300000)] [--once]

Watches the API's event feeds and delivers one alert per registry violation (and, when asked,
per MINTER_ROLE grant or revocation, PSM pause, redemption above an amount, or block where the
backing ratio crossed a threshold) as JSON lines on stdout and/or HMAC-signed webhooks (also
Standard Webhooks headers), at least once per event (a repeat keeps its delivery id, for the
receiver to drop); a reorg that undoes an event sends a retraction. A stale signed statement
or an unreadable venue is alerted once it has lasted its limit, and resolved when it ends.
Progress is kept in --state, and every alert is first written to a durable outbox per
destination (<state>.outbox/), so a restart resumes where it stopped. Each destination is
delivered in order on its own, retried with capped, jittered backoff for as long as it takes:
one that is down delays no other, and the monitor never gives up on it.

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
  2  usage error, or (--once) the poll failed
  3  (--once only) something is still queued for a destination; the next run delivers it
`;

export function parseMonitorArgs(argv: string[], env: Readonly<Record<string, string | undefined>>): MonitorOptions {
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
      "minter-grants": { type: "boolean" },
      "minter-role-changes": { type: "boolean" },
      "psm-pauses": { type: "boolean" },
      "redemptions-above": { type: "string" },
      "backing-ratio-below": { type: "string" },
      "statement-max-age": { type: "string" },
      "venue-unreadable-after": { type: "string" },
      "risk-triggers": { type: "boolean" },
      "from-block": { type: "string" },
      "max-attempts": { type: "string" },
      "base-delay-ms": { type: "string" },
      "max-delay-ms": { type: "string" },
      once: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) throw new HelpRequested();
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
  const kinds: FeedKind[] = ["violation"];
  if (values["minter-grants"]) kinds.push("minter_grant");
  if (values["psm-pauses"]) kinds.push("psm_pause");
  if (values["redemptions-above"] !== undefined) kinds.push("redemption");
  if (values["minter-role-changes"]) kinds.push("minter_role_change");
  const below = values["backing-ratio-below"];
  if (below !== undefined) {
    if (!/^\d{1,3}(\.\d{1,8})?$/.test(below)) throw new Error("--backing-ratio-below is a ratio such as 1 or 0.995");
    kinds.push("backing_ratio");
  }
  const from = values["from-block"];
  return {
    apiUrl: values.api.replace(/\/$/, ""),
    kinds,
    redemptionMinKusd: values["redemptions-above"] ?? "0",
    backingRatioBelow: below ?? "1",
    statementMaxAgeSeconds:
      values["statement-max-age"] === undefined ? null : int("statement-max-age", values["statement-max-age"], 0),
    venueUnreadableAfterSeconds:
      values["venue-unreadable-after"] === undefined
        ? null
        : int("venue-unreadable-after", values["venue-unreadable-after"], 0),
    riskTriggers: !!values["risk-triggers"],
    confirmations: int("confirmations", values.confirmations, 0),
    reorgWindow: int("reorg-window", values["reorg-window"], 64),
    pollMs: int("poll-ms", values["poll-ms"], 1_000),
    statePath: values.state ?? ".kusd-monitor.json",
    stdout: !!values.stdout,
    webhooks,
    secret,
    baseDelayMs: int("base-delay-ms", values["base-delay-ms"], 500),
    backoffCapMs: int("max-delay-ms", values["max-delay-ms"], 300_000),
    fromBlock: from === undefined || from === "head" ? "head" : int("from-block", from, 0),
    once: !!values.once,
  };
}

export async function runMonitorCli(
  argv: string[],
  io: { write: (s: string) => void; signal?: AbortSignal; env: Readonly<Record<string, string | undefined>> },
): Promise<number> {
  let options: MonitorOptions;
  try {
    options = parseMonitorArgs(argv, io.env);
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.write(MONITOR_USAGE);
      return 0;
    }
    io.write(`error: ${(e as Error).message}\n${MONITOR_USAGE}`);
    return 2;
  }
  return runMonitor(options, io);
}
