/**
 * The two destinations the monitor had before issue 30 (a signed webhook, JSON lines on stdout)
 * as Sinks, so the outbox drives them like any other. One attempt per deliver(): retrying is the
 * outbox's job, not the sink's.
 */
import { DeliveryError, deliveryId, postWebhook } from "./deliver.js";
import type { AlertView, DeliveryResult, Sink } from "./sinks/sink.js";

export function webhookSink(o: { id: string; url: string; secret: string; timeoutMs?: number }): Sink {
  return {
    id: o.id,
    type: "webhook",
    async deliver(view: AlertView): Promise<DeliveryResult> {
      try {
        await postWebhook(
          { url: o.url, secret: o.secret, maxAttempts: 1, baseDelayMs: 0, timeoutMs: o.timeoutMs },
          view.message,
        );
        return { ok: true };
      } catch (e) {
        const status = e instanceof DeliveryError ? e.details.lastStatus : null;
        // A 4xx other than 408/429 is the receiver refusing this message: retrying cannot help.
        const refused = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
        const error = e instanceof DeliveryError ? (e.details.lastError ?? `HTTP ${status}`) : (e as Error).message;
        return { ok: false, retryable: !refused, error };
      }
    },
  };
}

export function stdoutSink(o: { id: string; write: (line: string) => void }): Sink {
  return {
    id: o.id,
    type: "stdout",
    async deliver(view: AlertView): Promise<DeliveryResult> {
      o.write(`${JSON.stringify({ ...view.message, delivery: deliveryId(view.message) })}\n`);
      return { ok: true };
    },
  };
}
