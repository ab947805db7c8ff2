/**
 * The AlertView a Sink receives, built from a monitor message: the rendered message for people
 * in the monitor, and a plain one (basicAlertView) where tests need no registry.
 */
import { deliveryId, type MonitorMessage } from "./deliver.js";
import { type RenderContext, renderAlert } from "./messages/render.js";
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

/** The view every destination is given: the rendered message for people (messages/render.ts). */
export const alertViewFor = (message: MonitorMessage, ctx: RenderContext): AlertView => renderAlert(message, ctx);
