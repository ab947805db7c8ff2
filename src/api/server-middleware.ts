/**
 * What the API adds to Ponder's own server (the hooks `serverMiddleware` and `onHttpServer` of
 * patches/ponder+0.16.10.patch), so the API's rules hold on Ponder's routes too (/health, /ready,
 * /status, /metrics): HEAD carries the GET body's length, answers are compressed alike, the probes
 * answer within a second, and requests Node's parser refuses get the JSON error shape.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Context, MiddlewareHandler, Next } from "hono";
import { answerClientErrorsWithJson } from "../../api/http/client-error.js";
import { type Compression, compression } from "../../api/http/compression.js";
import { databaseUnavailable, errorBody } from "../../api/http/errors.js";
import { headContentLength } from "../../api/http/head.js";
import { keepIdleConnections } from "../../api/http/keep-alive.js";

/** Ponder's probes of its database: the ones bounded here. */
const PROBES = new Set(["/ready", "/status"]);
export const PROBE_TIMEOUT_MS = 1_000;

/**
 * /ready and /status within a second. Ponder retries their database read for about 15 s, so with
 * the database down they hung, then answered 500. A bounded read of our own asks the database
 * first; if it does not answer, or Ponder's handler takes longer, the answer is the API's
 * `503 database_unavailable` with Retry-After, and Ponder's handler is not waited for.
 */
export function boundedProbes(
  databaseAnswers: () => Promise<unknown>,
  timeoutMs = PROBE_TIMEOUT_MS,
): MiddlewareHandler {
  return async (c, next) => {
    if (!PROBES.has(c.req.path) || (c.req.method !== "GET" && c.req.method !== "HEAD")) return next();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    try {
      if ((await Promise.race([databaseAnswers().then(() => "ok" as const), late])) === "late") return unavailable(c);
      const handled = next().then(() => "done" as const);
      handled.catch(() => {}); // a handler answered too late may still fail: nobody waits for it
      if ((await Promise.race([handled, late])) === "late") return unavailable(c);
    } catch {
      return unavailable(c);
    } finally {
      clearTimeout(timer);
    }
  };
}

function unavailable(c: Context) {
  const e = databaseUnavailable();
  c.res = c.json(errorBody(e.code, e.message, e.details), e.status, {
    "Retry-After": String(e.details.retryAfterSeconds),
  });
  return c.res;
}

/** Middlewares in order, the first outermost, as one. */
function inOrder(...handlers: MiddlewareHandler[]): MiddlewareHandler {
  return (c, next) => {
    const run = (i: number): Promise<void> =>
      i === handlers.length ? next() : Promise.resolve(handlers[i]!(c, () => run(i + 1))).then(() => {});
    return run(0);
  };
}

export function ponderServerMiddleware(o: {
  databaseAnswers: () => Promise<unknown>;
  /** The exposition format /metrics is served in (prom-client's registry's). */
  metricsContentType?: string;
  /** The compression of Ponder's routes, its kept bodies sized by the caller (default: compression.ts's). */
  compression?: Compression;
}): MiddlewareHandler {
  // HEAD outermost, so a HEAD says the length of the coded body.
  return inOrder(
    headContentLength(),
    o.compression ?? compression(),
    boundedProbes(o.databaseAnswers),
    async (c: Context, next: Next) => {
      await next();
      // Ponder answers `text/plain; charset=UTF-8`; the registry names the format's version.
      if (o.metricsContentType && c.req.path === "/metrics" && c.res.status === 200)
        c.res.headers.set("Content-Type", o.metricsContentType);
    },
  );
}

/**
 * Given Ponder's Node server: GraphQL's WebSocket upgrades, the parser's refusals as JSON, and
 * idle connections kept past a load balancer's idle timeout (api/http/keep-alive.ts).
 */
export const onPonderServer =
  (upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void) =>
  (server: Server): void => {
    server.on("upgrade", upgrade);
    answerClientErrorsWithJson(server);
    keepIdleConnections(server);
  };
