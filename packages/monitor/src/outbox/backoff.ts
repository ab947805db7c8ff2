/**
 * When to try a failed delivery again: exponential from `baseMs`, capped at `capMs`, with "full
 * jitter" (a random point in [delay/2, delay]) so destinations recovering together are not hit by
 * every monitor at the same instant. A destination's Retry-After wins when it asks for longer.
 */
export type BackoffPolicy = { baseMs: number; capMs: number };

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 5 * 60_000 };

/** Delay before attempt `failures + 1`, after `failures` failed attempts (failures >= 1). */
export function backoffDelay(
  failures: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
  retryAfterMs?: number,
): number {
  // 2 ** 30 is far past any cap; keeps the exponent from overflowing to Infinity.
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  const jittered = Math.round(exp / 2 + (exp / 2) * random());
  return Math.max(jittered, retryAfterMs ?? 0);
}
