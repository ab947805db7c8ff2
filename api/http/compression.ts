/**
 * gzip and brotli for every answer worth it (issue 32): JSON, HTML, scripts, styles, text (the
 * Prometheus exposition) and the exports, negotiated by Accept-Encoding, with
 * `Vary: Accept-Encoding` on every answer whose type could be compressed.
 *
 * - A body in memory (JSON and the rest) of at least `thresholdBytes` is compressed once per
 *   distinct body and coding: the result is kept under the answer's ETag, or a hash of its bytes,
 *   so a report is compressed once per block however many read it.
 * - An export (CSV, NDJSON) is compressed as it streams, never held in memory.
 * - Server-sent events are left alone (a compressor would hold events back), and so is an answer
 *   that already has a coding (the page's precompressed assets).
 * - A compressed answer's ETag becomes weak (`W/"…"`): the bytes differ from the identity
 *   representation, and If-None-Match compares weakly, so revalidation keeps working.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import { type CacheSizes, lruSize } from "../io/cache-sizes.js";
import { type ContentCoding, negotiateEncoding } from "./accept-encoding.js";

/** Types whose bytes shrink: JSON (also graphql-response+json, problem+json), HTML, JS, CSS, text, XML, SVG. */
const COMPRESSIBLE = /^(application\/([\w.+-]*\+)?json|application\/(javascript|xml|x-ndjson)|text\/|image\/svg\+xml)/i;
/** Produced as they go: compressed as a stream, never buffered. */
const STREAMED = /^(text\/csv|application\/x-ndjson)/i;
const EVENT_STREAM = /^text\/event-stream/i;

// Middle settings: most of the size win at a small part of the maximum's CPU (brotli 11 takes
// tens of milliseconds for a 40 KB report; 5 takes about one).
const BROTLI = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP = { level: 6 };
const compressBuffer: Record<ContentCoding, (b: Buffer) => Promise<Buffer>> = {
  br: (b) => promisify(brotliCompress)(b, BROTLI),
  gzip: (b) => promisify(gzip)(b, GZIP),
};
const compressStream = { br: () => createBrotliCompress(BROTLI), gzip: () => createGzip(GZIP) };

export type CompressionOptions = {
  /** Smaller bodies go as they are: the coding's overhead outweighs the saving. */
  thresholdBytes?: number;
  /** Bytes of compressed bodies kept (an LRU by size). */
  maxCachedBytes?: number;
  /** The kept bodies' name on /metrics (default `compressed`). */
  cacheName?: string;
  /** Called for each compression actually run (not for one served from the kept bytes). */
  onCompressed?: (coding: ContentCoding, bytesIn: number, bytesOut: number) => void;
};

/** The middleware, with what its kept bodies weigh (for /metrics). */
export type Compression = MiddlewareHandler & { sizes: CacheSizes };

export function compression(o: CompressionOptions = {}): Compression {
  const threshold = o.thresholdBytes ?? 1024;
  const kept = new LRUCache<string, Buffer>({
    maxSize: o.maxCachedBytes ?? 16 * 1024 * 1024,
    sizeCalculation: (b) => Math.max(1, b.byteLength),
  });
  /** One compression per (body, coding), shared by concurrent requests. */
  const inFlight = new Map<string, Promise<Buffer>>();
  const compressOnce = (key: string, coding: ContentCoding, body: Buffer): Promise<Buffer> => {
    const done = kept.get(key);
    if (done) return Promise.resolve(done);
    const running = inFlight.get(key);
    if (running) return running;
    const started = compressBuffer[coding](body).then(
      (out) => {
        o.onCompressed?.(coding, body.byteLength, out.byteLength);
        kept.set(key, out);
        inFlight.delete(key);
        return out;
      },
      (e: unknown) => {
        inFlight.delete(key);
        throw e;
      },
    );
    inFlight.set(key, started);
    return started;
  };

  const middleware: MiddlewareHandler = async (c, next) => {
    await next();
    // Headers first, and the body only once the answer is rebuilt: under @hono/node-server, whose
    // Response stands in for the global one, reading `.body` of an answer Hono re-wrapped
    // re-creates it from its first headers, dropping those middleware added since (CORS, the
    // request id).
    const headers = new Headers(c.res.headers);
    // Already negotiated by an inner instance (the app's, inside the server's): nothing to do.
    if (/accept-encoding/i.test(headers.get("vary") ?? "")) return;
    const type = headers.get("content-type") ?? "";
    if (c.res.status === 304) {
      c.res.headers.append("Vary", "Accept-Encoding");
      return;
    }
    if (!COMPRESSIBLE.test(type) || EVENT_STREAM.test(type)) return;
    if (headers.has("content-encoding") || c.res.status === 206 || c.res.status === 204) return;
    headers.append("Vary", "Accept-Encoding");
    const coding = negotiateEncoding(c.req.header("accept-encoding"));
    if (!coding) {
      // Untouched but for Vary: the server still knows the body's length (no chunked identity answer).
      c.res.headers.append("Vary", "Accept-Encoding");
      return;
    }
    const { status } = c.res;
    const body = c.res.body;
    const answer = (b: BodyInit | null, h: Headers) => {
      c.res = undefined; // else Hono copies the old headers (Content-Length) over
      c.res = new Response(b, { status, headers: h });
    };
    if (!body) return answer(body, headers);
    // A body already compressed under its strong ETag (a report at this block) is not read again.
    const etag = headers.get("etag");
    const strong = etag && !etag.startsWith("W/") ? etag : null;
    const known = strong ? kept.get(`${coding}:${strong}`) : undefined;
    if (known) {
      void body.cancel();
      return answer(asBody(known), withCoding(headers, coding));
    }

    if (STREAMED.test(type)) {
      const compressed = Readable.toWeb(
        Readable.fromWeb(body as import("node:stream/web").ReadableStream).pipe(compressStream[coding]()),
      ) as ReadableStream<Uint8Array>;
      return answer(compressed, withCoding(headers, coding));
    }

    const bytes = Buffer.from(await new Response(body).arrayBuffer());
    if (bytes.byteLength < threshold) {
      headers.delete("Content-Length");
      return answer(asBody(bytes), headers);
    }
    const identity = strong ?? createHash("sha256").update(bytes).digest("base64url");
    const out = await compressOnce(`${coding}:${identity}`, coding, bytes);
    return answer(asBody(out), withCoding(headers, coding));
  };
  return Object.assign(middleware, { sizes: () => [lruSize(o.cacheName ?? "compressed", kept)] });
}

/** The coded answer's headers. Its length is the server's to write (@hono/node-server adds one for bytes: two would be a protocol error). */
function withCoding(out: Headers, coding: ContentCoding): Headers {
  out.set("Content-Encoding", coding);
  out.delete("Content-Length");
  const etag = out.get("etag");
  if (etag && !etag.startsWith("W/")) out.set("ETag", `W/${etag}`);
  return out;
}

/** Node's Buffers are backed by an ArrayBuffer (never shared) here: a body as they are, without a copy. */
const asBody = (b: Buffer) => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);
