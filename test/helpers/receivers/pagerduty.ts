/**
 * PagerDuty Events API v2 as PagerDuty checks it: routing_key (32 chars), event_action
 * trigger|acknowledge|resolve, dedup_key ≤ 255, and for trigger a payload with summary (≤ 1024),
 * source and severity critical|error|warning|info. Answers 202 {status:"success", message,
 * dedup_key} or 400 {status:"invalid event", message, errors}.
 */
import { randomUUID } from "node:crypto";
import { type Answer, type Receiver, startReceiver } from "./http-receiver.js";

const SEVERITIES = new Set(["critical", "error", "warning", "info"]);

export function checkPagerDuty(body: unknown): Answer {
  const errors: string[] = [];
  const b = (body ?? {}) as Record<string, unknown>;
  const p = b.payload as Record<string, unknown> | undefined;
  if (typeof b.routing_key !== "string" || b.routing_key.length !== 32)
    errors.push("'routing_key' must be 32 characters");
  if (!["trigger", "acknowledge", "resolve"].includes(b.event_action as string))
    errors.push("'event_action' is invalid (must be one of: trigger, acknowledge, resolve)");
  if (b.dedup_key !== undefined && (typeof b.dedup_key !== "string" || b.dedup_key.length > 255))
    errors.push("'dedup_key' must be a string of at most 255 characters");
  if (b.event_action !== "trigger" && typeof b.dedup_key !== "string") errors.push("'dedup_key' is missing");
  if (b.event_action === "trigger") {
    if (!p || typeof p !== "object") errors.push("'payload' is missing or blank");
    else {
      if (typeof p.summary !== "string" || p.summary === "") errors.push("'payload.summary' is missing or blank");
      else if (p.summary.length > 1024) errors.push("'payload.summary' must be at most 1024 characters");
      if (typeof p.source !== "string" || p.source === "") errors.push("'payload.source' is missing or blank");
      if (!SEVERITIES.has(p.severity as string)) errors.push("'payload.severity' is invalid");
      if (p.timestamp !== undefined && Number.isNaN(Date.parse(p.timestamp as string)))
        errors.push("'payload.timestamp' is invalid");
    }
  }
  if (errors.length)
    return { status: 400, body: { status: "invalid event", message: "Event object is invalid", errors } };
  return {
    status: 202,
    body: { status: "success", message: "Event processed", dedup_key: (b.dedup_key as string) ?? randomUUID() },
  };
}

export const startPagerDutyReceiver = (options: { delayMs?: number } = {}): Promise<Receiver> =>
  startReceiver((_path, body) => checkPagerDuty(body), options);

export const pagerDutyRateLimited: Answer = {
  status: 429,
  body: { status: "throttle event", message: "Requests for this service are arriving too quickly." },
};
