/**
 * Bytes on the wire (issue 32 item 4), read with node:http so nothing decodes them on the way:
 * every JSON, HTML, script and metrics answer of 1 KB or more comes gzip or brotli as the client
 * accepts (Vary: Accept-Encoding), decodes to exactly the identity answer, and /api/por fits in
 * 9 KB. The page's assets come precompressed from the build; an export streams compressed.
 */
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };
function rawGet(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.indexerUrl}${path}`, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
const decode = (r: Raw) =>
  r.headers["content-encoding"] === "br"
    ? brotliDecompressSync(r.body)
    : r.headers["content-encoding"] === "gzip"
      ? gunzipSync(r.body)
      : r.body;

describe("compression on the wire", () => {
  it("/api/por at a final block: brotli and gzip decode to the identity bytes; brotli under 9 KB", async () => {
    // A final block: its report never changes, so both requests below get the same bytes (at the
    // head, the time-of-report fields move with the chain and the ETag with them). The scripted
    // history's last block, not one near the head: the report lists the redemption precedent's
    // transactions, which grow with whatever other test files redeemed first (61 KB, not 39 KB).
    await s.caughtUp();
    const path = `/api/por?block=${s.deployment.chains.base.historyEndBlock}`;
    const identity = await rawGet(path);
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers.vary).toMatch(/Accept-Encoding/);
    for (const coding of ["br", "gzip"]) {
      const coded = await rawGet(path, { "accept-encoding": coding });
      expect([coding, coded.headers["content-encoding"]]).toEqual([coding, coding]);
      expect(coded.headers.vary).toMatch(/Accept-Encoding/);
      expect(decode(coded).equals(identity.body)).toBe(true);
      // The same representation, revalidated: its weak ETag answers 304.
      const again = await rawGet(path, { "accept-encoding": coding, "if-none-match": String(coded.headers.etag) });
      expect(again.status).toBe(304);
      console.log(`/api/por: ${identity.body.length} B identity, ${coded.body.length} B ${coding}`);
      if (coding === "br") expect(coded.body.length).toBeLessThanOrEqual(9 * 1024);
    }
  });

  it("/metrics (Ponder's route, through the server middleware) and /api/openapi.json come compressed", async () => {
    for (const path of ["/metrics", "/api/openapi.json"]) {
      const coded = await rawGet(path, { "accept-encoding": "gzip, br" });
      expect([path, coded.status, coded.headers["content-encoding"]]).toEqual([path, 200, "br"]);
      const text = decode(coded).toString();
      expect(text.length).toBeGreaterThan(coded.body.length * 3);
      if (path === "/metrics") expect(text).toMatch(/^# HELP /m);
      else expect(JSON.parse(text).openapi).toMatch(/^3\./);
    }
  });

  it("the page and its script are served from the build's precompressed copies", async () => {
    const page = await rawGet("/", { "accept-encoding": "br" });
    expect(page.headers["content-encoding"]).toBe("br");
    const html = decode(page).toString();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await rawGet(script!, { "accept-encoding": "gzip" });
    expect(js.headers["content-encoding"]).toBe("gzip");
    expect(decode(js).equals((await rawGet(script!)).body)).toBe(true);
  });

  it("an export streams gzip and decodes to the identity CSV", async () => {
    const head = await s.caughtUp();
    const path = `/api/export/psmSwaps.csv?toBlock=${head}`;
    const identity = await rawGet(path);
    const coded = await rawGet(path, { "accept-encoding": "gzip" });
    expect(coded.headers["content-encoding"]).toBe("gzip");
    expect(coded.headers["content-length"]).toBeUndefined();
    expect(decode(coded).equals(identity.body)).toBe(true);
  });
});
