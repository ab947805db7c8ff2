/**
 * Over the Node server the API runs on (@hono/node-server 2.x, which invents no Content-Type for a bodiless answer),
 * not only in process: a 304 carries no content headers, and HEAD carries the GET body's length.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headContentLength } from "./head.js";
import { render, sendRendered } from "./rendered.js";

const report = render({ ok: true, figure: "1.000000", note: "ü" });
const app = new Hono()
  .use("*", headContentLength())
  .use("*", async (c, next) => {
    await next();
    c.header("Vary", "Origin");
  })
  .get("/report", (c) => sendRendered(c, report, "public, max-age=2"));

let server: ReturnType<typeof serve>;
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
});

describe("over HTTP", () => {
  it("a 304 keeps ETag, Cache-Control and Vary, and has no Content-Type or Content-Length", async () => {
    const res = await fetch(`${base}/report`, { headers: { "If-None-Match": report.etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get("ETag")).toBe(report.etag);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=2");
    expect(res.headers.get("Vary")).toBe("Origin");
    expect(res.headers.get("Content-Type")).toBeNull();
    expect(res.headers.get("Content-Length")).toBeNull();
    expect(await res.text()).toBe("");
  });

  it("HEAD has the Content-Length GET sends, and the GET's Content-Type", async () => {
    const get = await fetch(`${base}/report`);
    const bytes = (await get.arrayBuffer()).byteLength;
    expect(get.headers.get("Content-Length")).toBe(String(bytes));
    const head = await fetch(`${base}/report`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Length")).toBe(String(bytes));
    expect(head.headers.get("Content-Type")).toBe("application/json");
    expect(head.headers.get("ETag")).toBe(report.etag);
  });
});
