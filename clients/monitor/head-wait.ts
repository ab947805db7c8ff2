/**
 * Between two polls the monitor waits on the service's head long poll (`/api/events/head`)
 * instead of sleeping: it polls again as soon as a block is indexed, and at the latest after
 * `maxMs` (its poll interval, which time-based conditions such as a stale statement need). A
 * service without the route, or one that fails, is waited for by sleeping `maxMs` as before.
 */
export async function waitForNewHead(
  apiUrl: string,
  after: number | null,
  maxMs: number,
  signal: AbortSignal,
): Promise<number | null> {
  const started = Date.now();
  const query = new URLSearchParams({ waitMs: String(Math.min(maxMs, 30_000)) });
  if (after !== null) query.set("after", String(after));
  try {
    const res = await fetch(`${apiUrl}/api/events/head?${query}`, { signal });
    if (res.ok) {
      const body = (await res.json()) as { indexedHead?: { blockNumber?: unknown } };
      const head = body.indexedHead?.blockNumber;
      if (typeof head === "number") return head;
    } else await res.body?.cancel();
  } catch {
    // stopped, or the service is down: the sleep below, then the next poll reports it
  }
  await sleep(Math.max(0, maxMs - (Date.now() - started)), signal);
  return after;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
