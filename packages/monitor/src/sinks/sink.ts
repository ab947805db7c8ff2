/**
 * A destination alerts are delivered to (Slack, Discord, Telegram, PagerDuty, email, a signed
 * webhook, a command). Each speaks its service's own wire format; the outbox (which retries,
 * orders and persists) only needs to know whether a delivery landed, and if not whether trying
 * again can help and when.
 */
import type { MonitorMessage } from "../deliver.js";

/** A message as people read it: rendered once, then shaped per destination. */
export type AlertView = {
  message: MonitorMessage;
  /** Stable per alert and its retraction (PagerDuty's dedup_key, receivers' dedupe id). */
  deliveryId: string;
  severity: "critical" | "error" | "warning" | "info";
  title: string;
  /** Plain-text lines: what happened, who (registry role and label), amounts in units, block and time, the proof. */
  lines: string[];
  /** A command or link that proves it (`cast call …`, an explorer or API URL). */
  proof: string | null;
};

export type DeliveryResult =
  | { ok: true }
  /** retryable false: the destination refused the message itself (a 400); trying again cannot help. */
  | { ok: false; retryable: boolean; retryAfterMs?: number; error: string };

export interface Sink {
  /** Unique within a configuration: names the destination's outbox and its metrics. */
  readonly id: string;
  readonly type: "slack" | "discord" | "telegram" | "pagerduty" | "email" | "webhook" | "command" | "stdout";
  deliver(view: AlertView, signal?: AbortSignal): Promise<DeliveryResult>;
}
