import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { headContentLength } from "./head.js";
import { render, sendRendered } from "./rendered.js";

const encoder = new TextEncoder();
const csv = ["a,b\n", "1,2\n", "3,4\n"];

function app() {
  const r = render({ ok: true, figures: [1, 2, 3], note: "ünïcode counts in bytes" });
  return new Hono()
    .use("*", headContentLength())
    .get("/json", (c) => c.json({ hello: "wörld" }))
    .get("/text", (c) => c.text("plain"))
    .get("/rendered", (c) => sendRendered(c, r, "public, max-age=2"))
    .get("/stream", (c) => {
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i < csv.length) controller.enqueue(encoder.encode(csv[i++]!));
          else controller.close();
        },
      });
      return c.body(body, 200, { "Content-Type": "text/csv" });
    })
    .get("/missing", (c) => c.json({ error: { code: "not_found" } }, 404));
}

describe("HEAD", () => {
  it("answers the GET's headers and status, no body, and the Content-Length of the body GET sends", async () => {
    const a = app();
    for (const path of ["/json", "/text", "/rendered", "/stream", "/missing"]) {
      const get = await a.request(path);
      const bytes = new Uint8Array(await get.arrayBuffer());
      const head = await a.request(path, { method: "HEAD" });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get("Content-Length"), path).toBe(String(bytes.byteLength));
      expect(head.headers.get("Content-Type"), path).toBe(get.headers.get("Content-Type"));
      expect(await head.text(), path).toBe("");
    }
  });

  it("counts bytes, not characters", async () => {
    const head = await app().request("/json", { method: "HEAD" });
    expect(head.headers.get("Content-Length")).toBe(String(Buffer.byteLength(JSON.stringify({ hello: "wörld" }))));
    expect(Number(head.headers.get("Content-Length"))).toBeGreaterThan(JSON.stringify({ hello: "wörld" }).length);
  });

  it("keeps a 304 without a length (nothing would be sent) and leaves GET alone", async () => {
    const a = app();
    const etag = (await a.request("/rendered")).headers.get("ETag")!;
    const head = await a.request("/rendered", { method: "HEAD", headers: { "If-None-Match": etag } });
    expect(head.status).toBe(304);
    expect(head.headers.get("Content-Length")).toBeNull();
    expect(head.headers.get("ETag")).toBe(etag);
    const get = await a.request("/stream");
    expect(await get.text()).toBe(csv.join(""));
  });
});
