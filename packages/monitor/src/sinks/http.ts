/**
 * The HTTP part every web destination shares: POST JSON with a timeout, and turn the answer into
 * a DeliveryResult the outbox understands (2xx landed; 429 and 5xx retry, honouring Retry-After;
 * other 4xx are refusals of the message itself, so retrying cannot help).
 */
import type { DeliveryResult } from "./sink.js";

export type HttpAnswer = { status: number; headers: Headers; text: string };

export async function postJson(
  url: string,
  body: unknown,
  signal?: AbortSignal,
  timeoutMs = 10_000,
): Promise<HttpAnswer | { error: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Retry-After in seconds (the only form these services send) as milliseconds. */
export function retryAfterMs(headers: Headers, bodySeconds?: unknown): number | undefined {
  const header = headers.get("retry-after");
  const s = typeof bodySeconds === "number" ? bodySeconds : header === null ? Number.NaN : Number(header);
  return Number.isFinite(s) && s >= 0 ? Math.ceil(s * 1000) : undefined;
}

/** The generic verdict; each sink refines it with what its service puts in the body. */
export function httpResult(a: HttpAnswer | { error: string }, service: string, bodySeconds?: unknown): DeliveryResult {
  if ("error" in a) return { ok: false, retryable: true, error: `${service}: ${a.error}` };
  if (a.status >= 200 && a.status < 300) return { ok: true };
  const error = `${service}: HTTP ${a.status} ${a.text.slice(0, 200)}`;
  if (a.status === 429)
    return { ok: false, retryable: true, retryAfterMs: retryAfterMs(a.headers, bodySeconds), error };
  return { ok: false, retryable: a.status >= 500 || a.status === 408, error };
}
