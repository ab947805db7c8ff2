/**
 * Routes for the benches only, off unless KUSD_BENCH_ROUTES=1:
 *   - GET /__bench/constant: the baseline of `npm run bench:reports`, a constant JSON answer of a
 *     chosen size, served by the same process through the same middleware as the reports, so a
 *     report's throughput can be put against the server's own limit in the same run;
 *   - POST /__bench/gc: a full garbage collection, then the process's memory, for
 *     `npm run bench:soak` (heap after GC is what stays live; the process runs with --expose-gc).
 */
import { Hono } from "hono";
import { badRequest } from "./errors.js";

/** A JSON value whose serialisation is `bytes` long (± a few), shaped like a report: nested objects of short fields. */
export function constantBody(bytes: number): unknown {
  const row = {
    address: "0x0000000000000000000000000000000000000000",
    usd: 1234.5678,
    wei: "1234567800000000000000",
    note: "constant",
  };
  const rowBytes = JSON.stringify(row).length + 1;
  const rows = Array.from({ length: Math.max(0, Math.floor((bytes - 12) / rowBytes)) }, () => row);
  const pad = Math.max(0, bytes - JSON.stringify({ rows, pad: "" }).length);
  return { rows, pad: "x".repeat(pad) };
}

/**
 * Where the Ponder API mounts Ponder's generated GraphQL when KUSD_BENCH_ROUTES=1: the baseline
 * `npm run bench:api` measures /graphql against. Never served otherwise.
 */
export const PONDER_GRAPHQL_BENCH_PATH = "/__bench/ponder/graphql";

export function benchRoutes() {
  const app = new Hono();
  const bodies = new Map<number, unknown>();
  app.get("/__bench/constant", (c) => {
    const bytes = Number(c.req.query("bytes") ?? 1000);
    if (!Number.isInteger(bytes) || bytes < 32 || bytes > 1_000_000)
      throw badRequest("invalid_bytes", "bytes must be a whole number from 32 to 1,000,000");
    if (!bodies.has(bytes)) bodies.set(bytes, constantBody(bytes));
    // c.json serialises on every request, as a report route did before its answers were kept.
    return c.json(bodies.get(bytes));
  });
  app.post("/__bench/gc", (c) => c.json(collectedMemory(globalThis.gc)));
  return app;
}

/** The process's memory after a full collection, when `gc` is exposed (--expose-gc); `collected` says whether it ran. */
export function collectedMemory(gc: (() => void) | undefined) {
  gc?.();
  const m = process.memoryUsage();
  return {
    collected: gc !== undefined,
    rssBytes: m.rss,
    heapUsedBytes: m.heapUsed,
    heapTotalBytes: m.heapTotal,
    externalBytes: m.external,
    arrayBuffersBytes: m.arrayBuffers,
  };
}
