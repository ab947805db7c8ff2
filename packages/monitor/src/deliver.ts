/**
 * Delivery of monitor messages: a JSON line on stdout and/or a POST to each webhook, signed
 * with HMAC-SHA256 over `${timestamp}.${body}` so a receiver can check origin and freshness,
 * retried with exponential backoff. The delivery id is stable per message, so a receiver can
 * drop the duplicate a crash between delivery and the state write may cause.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { KusdError } from "@kusd/core";

export const SIGNATURE_HEADER = "x-kusd-signature";
export const TIMESTAMP_HEADER = "x-kusd-timestamp";
export const DELIVERY_HEADER = "x-kusd-delivery";

/**
 * The same delivery signed the Standard Webhooks way (standardwebhooks.com), so off-the-shelf
 * receivers verify it: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 * Its key is the secret read as those libraries read it: base64, after an optional `whsec_`.
 */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
}

export class DeliveryError extends KusdError<{
  url: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}> {
  override name = "DeliveryError";
  readonly code: string = "webhook_delivery_failed";
  constructor(
    message: string,
    details: { url: string; attempts: number; lastStatus: number | null; lastError: string | null },
  ) {
    super(message, details);
  }
}

/** alert and retraction: events at a block (a reorg retracts); alert and resolved: conditions. */
export type MonitorMessage = {
  type: "alert" | "retraction" | "resolved";
  kind: string;
  id: string;
  blockNumber: number;
  [k: string]: unknown;
};

export const deliveryId = (m: MonitorMessage) => `${m.type}:${m.kind}:${m.id}`;

export function signBody(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Receiver side: constant-time check of the signature header, with a freshness window. */
export function verifyWebhook(
  secret: string,
  headers: { signature?: string | null; timestamp?: string | null },
  body: string,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts) || Math.abs(now - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signBody(secret, ts, body));
  const got = Buffer.from(headers.signature);
  return expected.length === got.length && timingSafeEqual(expected, got);
}

export type WebhookOptions = {
  url: string;
  secret: string;
  maxAttempts: number;
  baseDelayMs: number;
  timeoutMs?: number;
};

export async function postWebhook(
  o: WebhookOptions,
  message: MonitorMessage,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  const body = JSON.stringify(message);
  let lastStatus: number | null = null;
  let lastError: string | null = null;
  for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(o.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signBody(o.secret, timestamp, body),
          [DELIVERY_HEADER]: deliveryId(message),
          ...standardWebhookHeaders(o.secret, deliveryId(message), timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
      await res.body?.cancel();
      if (res.ok) return;
      lastStatus = res.status;
      lastError = null;
    } catch (e) {
      lastError = (e as Error).message;
    }
    if (attempt < o.maxAttempts) await sleep(o.baseDelayMs * 2 ** (attempt - 1));
  }
  throw new DeliveryError(`webhook ${o.url} failed after ${o.maxAttempts} attempts`, {
    url: o.url,
    attempts: o.maxAttempts,
    lastStatus,
    lastError,
  });
}
