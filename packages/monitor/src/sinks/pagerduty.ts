/**
 * PagerDuty Events API v2 (developer.pagerduty.com/docs/events-api-v2/trigger-events): an alert
 * triggers an incident, its retraction or resolution resolves the same one, so the dedup_key is
 * derived from kind + id (never from the message type). 202 accepted; 400 "invalid event" is a
 * refusal; 429 and 5xx retry.
 */
import { alertKey } from "../messages/render.js";
import { httpResult, postJson } from "./http.js";
import type { AlertView, Sink } from "./sink.js";

export const PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue";

export type PagerDutyOptions = {
  id?: string;
  url?: string;
  routingKey: string;
  /** payload.source: where the problem is; the monitored deployment by default. */
  source?: string;
  timeoutMs?: number;
};

export function pagerDutyEvent(v: AlertView, o: Pick<PagerDutyOptions, "routingKey" | "source">) {
  const dedup_key = alertKey(v.message);
  if (v.message.type !== "alert") return { routing_key: o.routingKey, event_action: "resolve", dedup_key };
  const m = v.message as Record<string, unknown>;
  return {
    routing_key: o.routingKey,
    event_action: "trigger",
    dedup_key,
    payload: {
      summary: v.title.length <= 1024 ? v.title : `${v.title.slice(0, 1023)}…`,
      source: o.source ?? "kusd-monitor",
      severity: v.severity,
      timestamp: typeof m.timestamp === "string" ? m.timestamp : new Date().toISOString(),
      component: v.message.kind,
      class: v.message.kind,
      custom_details: { lines: v.lines, proof: v.proof, deliveryId: v.deliveryId, message: v.message },
    },
  };
}

export function pagerDutySink(o: PagerDutyOptions): Sink {
  return {
    id: o.id ?? "pagerduty",
    type: "pagerduty",
    async deliver(view, signal) {
      const a = await postJson(o.url ?? PAGERDUTY_EVENTS_URL, pagerDutyEvent(view, o), signal, o.timeoutMs);
      return httpResult(a, "pagerduty");
    },
  };
}
