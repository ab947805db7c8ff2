/**
 * HEAD as clients expect it (RFC 9110 §9.3.2): the headers a GET would get, Content-Length
 * included. Hono answers a HEAD by running the GET route and dropping its body, which leaves no
 * length (the Node server measures only bodies it sends), so a client could not learn a report's
 * size without downloading it.
 */
import type { MiddlewareHandler } from "hono";

/** Counts a body's bytes without keeping them (an export can be large). */
async function byteLength(body: ReadableStream<Uint8Array>): Promise<number> {
  const reader = body.getReader();
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return length;
    length += value.byteLength;
  }
}

/** For a HEAD: the GET's answer without its body, with the Content-Length that body has. */
export const headContentLength = (): MiddlewareHandler => async (c, next) => {
  await next();
  if (c.req.method !== "HEAD" || !c.res.body || c.res.headers.has("Content-Length")) return;
  const { status, headers } = c.res;
  const length = await byteLength(c.res.body);
  c.res = new Response(null, { status, headers });
  c.res.headers.set("Content-Length", String(length));
};
