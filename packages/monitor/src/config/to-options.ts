/** The validated configuration as the options the monitor runs on. */
import type { FeedKind, MonitorOptions } from "../monitor.js";
import type { MonitorConfig } from "./schema.js";
import { stateLocation } from "./state-location.js";

/** `env` locates the default state directory (HOME, XDG_STATE_HOME). */
export function monitorOptionsOf(
  c: MonitorConfig,
  once: boolean,
  env: Readonly<Record<string, string | undefined>>,
): MonitorOptions {
  const a = c.alerts;
  // Violations always; the rest as opted in (the order the flags have always produced).
  const kinds: FeedKind[] = ["violation"];
  if (a.minterGrants) kinds.push("minter_grant");
  if (a.psmPauses) kinds.push("psm_pause");
  if (a.redemptions) kinds.push("redemption");
  if (a.minterRoleChanges) kinds.push("minter_role_change");
  if (a.backingRatio) kinds.push("backing_ratio");
  return {
    apiUrl: c.api.replace(/\/$/, ""),
    kinds,
    redemptionMinKusd: a.redemptions?.minKusd ?? "0",
    backingRatioBelow: a.backingRatio?.below ?? "1",
    statementMaxAgeSeconds: a.statementMaxAgeSeconds ?? null,
    venueUnreadableAfterSeconds: a.venueUnreadableAfterSeconds ?? null,
    riskTriggers: a.riskTriggers,
    confirmations: c.confirmations,
    reorgWindow: c.reorgWindow,
    pollMs: c.pollMs,
    ...stateLocation(c, env),
    group: c.group,
    ...(c.instance && { instance: c.instance }),
    stdout: false,
    webhooks: [],
    secret: "",
    sinks: c.sinks,
    baseDelayMs: c.retry.baseDelayMs,
    backoffCapMs: c.retry.maxDelayMs,
    metricsPort: c.metricsPort ?? null,
    templates: c.templates,
    fromBlock: c.fromBlock,
    once,
  };
}
