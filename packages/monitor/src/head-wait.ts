/**
 * Between two polls the monitor waits on the service's head long poll (`/api/events/head`)
 * instead of sleeping: it polls again as soon as a block is indexed, and at the latest after
 * `maxMs` (its poll interval, which time-based conditions such as a stale statement need). A
 * service without the route, or one that fails, is waited for by sleeping `maxMs` as before.
 */
/** How long past its waitMs the service may take to answer the long poll. */
const ANSWER_GRACE_MS = 10_000;

export async function waitForNewHead(
  apiUrl: string,
  after: number | null,
  maxMs: number,
  signal: AbortSignal,
): Promise<number | null> {
  if (signal.aborted) return after; // stopped: no request
  const started = Date.now();
  const query = new URLSearchParams({ waitMs: String(Math.min(maxMs, 30_000)) });
  if (after !== null) query.set("after", String(after));
  // Each wait has its own signal, aborted by the monitor's and removed from it after: undici keeps
  // a listener on the signal a request is given until that request is collected, so the monitor's
  // own signal, given to one request per block, gathered thousands (Node 22 warned at 1,500). A
  // service that holds the answer well past its waitMs is given up on too.
  const request = new AbortController();
  const stop = () => request.abort();
  signal.addEventListener("abort", stop, { once: true });
  const late = setTimeout(stop, Math.min(maxMs, 30_000) + ANSWER_GRACE_MS);
  try {
    const res = await fetch(`${apiUrl}/api/events/head?${query}`, { signal: request.signal });
    if (res.ok) {
      const body = (await res.json()) as { indexedHead?: { blockNumber?: unknown } };
      const head = body.indexedHead?.blockNumber;
      if (typeof head === "number") return head;
    } else await res.body?.cancel();
  } catch {
    // stopped, or the service is down: the sleep below, then the next poll reports it
  } finally {
    clearTimeout(late);
    signal.removeEventListener("abort", stop);
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
