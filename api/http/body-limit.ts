/**
 * The request-body limit of every route, with a 413 the client can read. @hono/node-server
 * (Ponder's server and the replica's `serve`) destroys a request whose body has not ended once
 * the answer is out: a client that writes its whole body before reading (Python's http.client,
 * many agent HTTP libraries) is still writing, the kernel answers its data with a reset, and the
 * client reads ECONNRESET instead of the 413. So a body over the limit is read to its end and
 * dropped before the 413 goes out, and the connection stays open for the next request.
 *
 * Draining has caps (bytes and time): past them, or when Content-Length already says the body is
 * larger, the 413 goes out at once with `Connection: close`, and a client still writing may then
 * see a reset instead of it. The caps bound what one refused request costs the server.
 *
 * Under Node the rest is drained from the IncomingMessage itself, each chunk dropped as it comes.
 * Through the Fetch body it is not: @hono/node-server reads that with Readable.toWeb, which on
 * Node 20 queues whatever arrives whatever the reader's pace, and a 10 MB body sent in chunks of a
 * few bytes (millions of Buffers) ran the process out of heap (fuzz seed 22302554).
 */
import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { errorBody } from "./errors.js";

/** Bytes of an over-limit body read and dropped before the 413; beyond them the connection is closed. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** How long the rest of an over-limit body may take to arrive before the 413 goes out anyway. */
export const DRAIN_MAX_MS = 5_000;
/** Chunks of an over-limit body read before tiny ones (under 512 bytes on average) end the drain. */
export const DRAIN_MAX_EVENTS = 20_000;

export type BodyLimitOptions = { maxBytes: number; drainMaxBytes?: number; drainMaxMs?: number };

export function bodyLimit({
  maxBytes,
  drainMaxBytes = DRAIN_MAX_BYTES,
  drainMaxMs = DRAIN_MAX_MS,
}: BodyLimitOptions): MiddlewareHandler {
  const tooLarge = (c: Context, drained: boolean) => {
    if (!drained) c.header("Connection", "close");
    return c.json(errorBody("payload_too_large", `request bodies are limited to ${maxBytes} bytes`, { maxBytes }), 413);
  };
  return async (c, next) => {
    // Node's parser ends the body at its Content-Length; a chunked body says its size only as it arrives.
    const chunked = c.req.raw.headers.has("transfer-encoding");
    const length = c.req.header("content-length");
    const declared = chunked || length === undefined ? Number.NaN : Number(length);
    if (declared <= maxBytes) return next();
    if (declared > drainMaxBytes) return tooLarge(c, false);
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (incoming && !chunked) {
      // HTTP/1.1: without Content-Length or chunked coding there is no body.
      if (length === undefined) return next();
      // Drained from the IncomingMessage with the Fetch body never touched: its first pull would
      // start Readable.toWeb, whose pause() stops the drain.
      return tooLarge(c, await drainIncoming(incoming, 0, drainMaxBytes, drainMaxMs));
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    let seen = 0;
    if (Number.isNaN(declared)) {
      const chunks: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          // Handlers read the buffered copy: the stream they would have read is used up.
          c.req.raw = new Request(c.req.raw, { body: concat(chunks, seen) });
          return next();
        }
        seen += value.byteLength;
        if (seen > maxBytes) break;
        chunks.push(value);
      }
    }
    const drained = incoming
      ? await drainIncoming(incoming, seen, drainMaxBytes, drainMaxMs)
      : await drain(reader, seen, drainMaxBytes, drainMaxMs);
    return tooLarge(c, drained);
  };
}

/**
 * Reads and drops the rest of a Node request body: true when it ended within the caps. The Fetch
 * body's own listener is taken off first, so nothing queues behind the reader it no longer has.
 */
function drainIncoming(incoming: IncomingMessage, seen: number, maxBytes: number, maxMs: number): Promise<boolean> {
  if (incoming.complete) return Promise.resolve(true);
  incoming.removeAllListeners("data");
  return new Promise((resolve) => {
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      incoming.off("data", onData);
      if (!ended) incoming.pause();
      resolve(ended);
    };
    let events = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      events++;
      // A body in chunks of a few bytes costs the event loop a callback per chunk: past
      // DRAIN_MAX_EVENTS of them at under 512 bytes each it is not drained, whatever its size.
      if (seen > maxBytes || (events > DRAIN_MAX_EVENTS && seen < events * 512)) finish(false);
    };
    const timer = setTimeout(() => finish(false), maxMs);
    incoming.on("data", onData);
    incoming.once("end", () => finish(true));
    incoming.once("error", () => finish(false));
    incoming.once("close", () => finish(incoming.complete));
    incoming.resume();
  });
}

/** Reads and drops the rest of a Fetch body (no Node request underneath): true when it ended within the caps (`seen` bytes already read count). */
async function drain(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  seen: number,
  maxBytes: number,
  maxMs: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<"time up">((resolve) => (timer = setTimeout(() => resolve("time up"), maxMs)));
  let ended = false;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeUp]);
      if (next === "time up") return false;
      if (next.done) {
        ended = true;
        return true;
      }
      seen += next.value.byteLength;
      if (seen > maxBytes) return false;
    }
  } catch {
    // The client went away mid-body: nobody reads the 413, and the connection is gone anyway.
    return false;
  } finally {
    clearTimeout(timer);
    if (!ended) reader.cancel().catch(() => {});
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
