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
 */
import type { Context, MiddlewareHandler } from "hono";
import { errorBody } from "./errors.js";

/** Bytes of an over-limit body read and dropped before the 413; beyond them the connection is closed. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** How long the rest of an over-limit body may take to arrive before the 413 goes out anyway. */
export const DRAIN_MAX_MS = 5_000;

export type BodyLimitOptions = { maxBytes: number; drainMaxBytes?: number; drainMaxMs?: number };

export function bodyLimit({ maxBytes, drainMaxBytes = DRAIN_MAX_BYTES, drainMaxMs = DRAIN_MAX_MS }: BodyLimitOptions): MiddlewareHandler {
  const tooLarge = (c: Context, drained: boolean) => {
    if (!drained) c.header("Connection", "close");
    return c.json(errorBody("payload_too_large", `request bodies are limited to ${maxBytes} bytes`, { maxBytes }), 413);
  };
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    // Node's parser ends the body at its Content-Length; a chunked body says its size only as it arrives.
    const declared = c.req.raw.headers.has("transfer-encoding") ? Number.NaN : Number(c.req.header("content-length") ?? Number.NaN);
    if (declared <= maxBytes) return next();
    if (declared > drainMaxBytes) return tooLarge(c, false);
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
    return tooLarge(c, await drain(reader, seen, drainMaxBytes, drainMaxMs));
  };
}

/** Reads and drops the rest of a body: true when it ended within the caps (`seen` bytes already read count). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number, maxBytes: number, maxMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<"time up">((resolve) => (timer = setTimeout(() => resolve("time up"), maxMs)));
  let ended = false;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeUp]);
      if (next === "time up") return false;
      if (next.done) return (ended = true);
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
