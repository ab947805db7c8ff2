/**
 * A JSON answer serialised once, with a strong ETag of its bytes, and the Cache-Control a report
 * gets: a report pinned to a final block never changes, one at the head changes with the next
 * block. `If-None-Match` naming the ETag answers 304 without a body.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";

/** `bytes`: the body as UTF-8, encoded once: every answer of a report would otherwise re-encode (and re-validate) the same string. */
export type Rendered = { body: string; bytes: Uint8Array<ArrayBuffer>; etag: string };

export function render(value: unknown): Rendered {
  return rendered(JSON.stringify(value));
}

/** JSON already serialised (a published artifact, whose bytes are what was signed and stored). */
export function rendered(body: string): Rendered {
  const bytes = Buffer.from(body, "utf8");
  return {
    body,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>,
    etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`,
  };
}

/**
 * Blocks below the indexed head after which a block counts as final. Base's reorgs are a block or
 * two deep; 64 blocks (about two minutes) leaves a wide margin.
 */
export const FINAL_DEPTH = 64n;

/** A block at least FINAL_DEPTH below the indexed head: its reports are served immutable. */
export const isFinalBlock = (blockNumber: bigint, headBlockNumber: bigint): boolean =>
  blockNumber + FINAL_DEPTH <= headBlockNumber;

/** Seconds an answer at the head may be reused: Base makes a block every 2 s. */
export const HEAD_MAX_AGE_SECONDS = 2;

/**
 * `?block=N` at a final block: immutable (every figure is pinned to N; the attestation's
 * time-of-report fields stay those of the first answer). The head, or a block still within
 * reach of a reorg: a couple of seconds. A document with a read that did not land is this
 * request's answer only: no cache may keep it.
 */
export function reportCacheControl(
  at: { blockNumber: bigint; head: { blockNumber: bigint } },
  requestedBlock: string | undefined,
  failedReads: readonly string[] = [],
): string {
  if (failedReads.length > 0) return "no-store";
  const pinned = requestedBlock !== undefined && requestedBlock !== "" && requestedBlock !== "latest";
  if (pinned && isFinalBlock(at.blockNumber, at.head.blockNumber)) return "public, max-age=31536000, immutable";
  return `public, max-age=${HEAD_MAX_AGE_SECONDS}`;
}

/** If-None-Match matching (weak comparison, `*`, lists), as RFC 9110 §13.1.2 says for GET. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => strip(t) === strip(etag));
}

export function sendRendered(c: Context, r: Rendered, cacheControl: string): Response {
  c.header("ETag", r.etag);
  c.header("Cache-Control", cacheControl);
  if (matchesIfNoneMatch(c.req.header("If-None-Match"), r.etag)) return c.body(null, 304);
  return c.body(r.bytes, 200, { "Content-Type": "application/json" });
}
