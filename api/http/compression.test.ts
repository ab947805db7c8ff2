import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { compression } from "./compression.js";
import { headContentLength } from "./head.js";
import { matchesIfNoneMatch } from "./rendered.js";

const big = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, address: `0x${"ab".repeat(20)}` })) });
const csv = `a,b\n${Array.from({ length: 2000 }, (_, i) => `${i},${i * 2}`).join("\n")}\n`;

function app() {
  const runs: string[] = [];
  const a = new Hono();
  a.use("*", headContentLength());
  a.use("*", compression({ onCompressed: (coding) => runs.push(coding) }));
  a.get("/big", (c) => {
    c.header("ETag", '"report-at-block-7"');
    if (matchesIfNoneMatch(c.req.header("If-None-Match"), '"report-at-block-7"')) return c.body(null, 304);
    return c.body(big, 200, { "Content-Type": "application/json" });
  });
  a.get("/small", (c) => c.json({ ok: true }));
  a.get("/csv", (c) =>
    c.body(
      new ReadableStream({
        start(controller) {
          for (const line of csv.split(/(?<=\n)/)) controller.enqueue(new TextEncoder().encode(line));
          controller.close();
        },
      }),
      200,
      { "Content-Type": "text/csv; charset=utf-8" },
    ),
  );
  a.get("/events", (c) => c.body("data: x\n\n".repeat(500), 200, { "Content-Type": "text/event-stream" }));
  a.get("/png", (c) => c.body(new Uint8Array(5000), 200, { "Content-Type": "image/png" }));
  return { a, runs };
}

const get = (a: Hono, path: string, headers: Record<string, string> = {}, method = "GET") =>
  a.request(path, { method, headers });

describe("compression", () => {
  it("brotli when accepted: the same bytes once decoded, Vary, a weak ETag", async () => {
    const { a } = app();
    const res = await get(a, "/big", { "Accept-Encoding": "gzip, deflate, br" });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(res.headers.get("etag")).toBe('W/"report-at-block-7"');
    const coded = Buffer.from(await res.arrayBuffer());
    expect(coded.byteLength).toBeLessThan(big.length / 5);
    expect(brotliDecompressSync(coded).toString()).toBe(big);
  });

  it("gzip when brotli is refused; identity without Accept-Encoding (still Vary)", async () => {
    const { a } = app();
    const gz = await get(a, "/big", { "Accept-Encoding": "br;q=0, gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(big);
    const plain = await get(a, "/big");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(plain.headers.get("etag")).toBe('"report-at-block-7"');
    expect(await plain.text()).toBe(big);
  });

  it("compresses a body once per coding, however many ask", async () => {
    const { a, runs } = app();
    await Promise.all(Array.from({ length: 5 }, () => get(a, "/big", { "Accept-Encoding": "br" })));
    await get(a, "/big", { "Accept-Encoding": "br" });
    await get(a, "/big", { "Accept-Encoding": "gzip" });
    expect(runs).toEqual(["br", "gzip"]);
  });

  it("revalidation: the weak ETag it sent answers 304, with Vary", async () => {
    const { a } = app();
    const first = await get(a, "/big", { "Accept-Encoding": "br" });
    const again = await get(a, "/big", { "Accept-Encoding": "br", "If-None-Match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(again.headers.get("vary")).toMatch(/Accept-Encoding/);
  });

  it("HEAD says the length GET sends with the same Accept-Encoding", async () => {
    const { a } = app();
    const getRes = await get(a, "/big", { "Accept-Encoding": "br" });
    const head = await get(a, "/big", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.headers.get("content-encoding")).toBe("br");
    expect(head.headers.get("content-length")).toBe(String((await getRes.arrayBuffer()).byteLength));
  });

  it("a small body, server-sent events and images go as they are", async () => {
    const { a } = app();
    const small = await get(a, "/small", { "Accept-Encoding": "br" });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.json()).toEqual({ ok: true });
    const events = await get(a, "/events", { "Accept-Encoding": "br" });
    expect(events.headers.get("content-encoding")).toBeNull();
    const png = await get(a, "/png", { "Accept-Encoding": "br" });
    expect(png.headers.get("content-encoding")).toBeNull();
  });

  it("an export streams compressed, without a Content-Length", async () => {
    const { a } = app();
    const res = await get(a, "/csv", { "Accept-Encoding": "gzip" });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-length")).toBeNull();
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(csv);
  });

  it("over @hono/node-server (whose Response replaces the global one), a raw Response from a handler keeps the headers middleware added", async () => {
    const a = new Hono()
      .use("*", cors({ origin: "*" }))
      .use("*", compression())
      .use("*", requestId())
      .get("/raw", () => new Response(big, { headers: { "content-type": "application/json" } }));
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: a.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/raw`;
      for (const encoding of ["br", "identity"]) {
        const res = await fetch(url, { headers: { origin: "https://elsewhere.example", "accept-encoding": encoding } });
        expect([encoding, res.headers.get("access-control-allow-origin")]).toEqual([encoding, "*"]);
        expect([encoding, res.headers.get("x-request-id")]).toEqual([encoding, expect.any(String)]);
        expect(await res.text()).toBe(big);
        // Identity keeps its length (not chunked).
        if (encoding === "identity") expect(res.headers.get("content-length")).toBe(String(big.length));
      }
      const coded = await fetch(url, { method: "HEAD", headers: { "accept-encoding": "br" } });
      expect(coded.headers.get("content-encoding")).toBe("br");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
