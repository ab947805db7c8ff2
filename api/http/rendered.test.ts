import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { FINAL_DEPTH, matchesIfNoneMatch, render, reportCacheControl, sendRendered } from "./rendered.js";

describe("render", () => {
  it("serialises once and names the bytes with a strong ETag: same bytes, same tag", () => {
    const a = render({ x: 1, y: [1, 2] });
    expect(a.body).toBe('{"x":1,"y":[1,2]}');
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(render({ x: 1, y: [1, 2] }).etag).toBe(a.etag);
    expect(render({ x: 2, y: [1, 2] }).etag).not.toBe(a.etag);
  });
});

describe("reportCacheControl", () => {
  const head = { blockNumber: 1_000n };
  it("immutable only for ?block=N at a final block", () => {
    expect(
      reportCacheControl({ blockNumber: head.blockNumber - FINAL_DEPTH, head }, String(head.blockNumber - FINAL_DEPTH)),
    ).toBe("public, max-age=31536000, immutable");
    expect(reportCacheControl({ blockNumber: head.blockNumber - FINAL_DEPTH + 1n, head }, "937")).toBe(
      "public, max-age=2",
    );
    expect(reportCacheControl({ blockNumber: 1_000n, head }, undefined)).toBe("public, max-age=2");
    expect(reportCacheControl({ blockNumber: 1_000n, head }, "latest")).toBe("public, max-age=2");
    expect(
      reportCacheControl(
        { blockNumber: head.blockNumber - FINAL_DEPTH, head },
        String(head.blockNumber - FINAL_DEPTH),
        ["stableCaps(address) at 0x…"],
      ),
    ).toBe("no-store");
  });
});

describe("If-None-Match", () => {
  it("matches the tag, weakly, in a list, or *", () => {
    expect(matchesIfNoneMatch('"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abd"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"abc"')).toBe(false);
  });

  it("answers 304 without a body when the client has the bytes, 200 with them otherwise", async () => {
    const r = render({ ok: true });
    const app = new Hono().get("/r", (c) => sendRendered(c, r, "public, max-age=2"));
    const first = await app.request("/r");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/application\/json/);
    expect(await first.text()).toBe(r.body);
    const again = await app.request("/r", { headers: { "If-None-Match": first.headers.get("ETag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(r.etag);
    expect(again.headers.get("Cache-Control")).toBe("public, max-age=2");
    expect(await again.text()).toBe("");
  });
});
