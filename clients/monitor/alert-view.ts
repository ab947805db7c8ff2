/**
 * The AlertView a Sink receives, built from a monitor message. This is the plain fallback: the
 * messages for people (clients/monitor/messages/, issue 30 item 2) replace it where they exist.
 */
import { deliveryId, type MonitorMessage } from "./deliver.js";
import type { AlertView } from "./sinks/sink.js";

const SEVERITY: Record<string, AlertView["severity"]> = {
  violation: "critical",
  backing_ratio: "critical",
  minter_grant: "error",
  minter_role_change: "error",
  psm_pause: "warning",
  statement_stale: "warning",
  venue_unreadable: "warning",
  trigger: "error",
  gap: "warning",
  redemption: "info",
};

export function basicAlertView(message: MonitorMessage): AlertView {
  const verb = message.type === "alert" ? "" : ` ${message.type}`;
  return {
    message,
    deliveryId: deliveryId(message),
    severity: message.type === "alert" ? (SEVERITY[message.kind] ?? "warning") : "info",
    title: `kUSD ${message.kind}${verb} at block ${message.blockNumber}`,
    lines: [`${message.kind} ${message.id}`, `block ${message.blockNumber}`],
    proof: typeof message.txHash === "string" ? message.txHash : null,
  };
}

/**
 * The view every destination is given. ISSUE 30 ITEM 2 PLUGS IN HERE: once
 * clients/monitor/messages/render.ts is committed, return its renderAlert(message, ctx) instead.
 */
export const alertViewFor = (message: MonitorMessage): AlertView => basicAlertView(message);
