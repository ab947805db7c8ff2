import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { mcpOriginPolicy, originGuard, refusal } from "./origin-guard.js";

describe("the /mcp Host and Origin check", () => {
  const local = mcpOriginPolicy("http://localhost:42069");
  const hosted = mcpOriginPolicy("https://kusd.example.org", {
    origins: ["https://agents.example.com/some/path"],
    hosts: ["kusd-internal:8080"],
  });

  it("refuses the DNS-rebinding request: a foreign Host, a foreign Origin", () => {
    expect(refusal(local, "evil.example.com", "http://evil.example.com")).toMatch(/^Host evil\.example\.com is not/);
    // The attacker's name on this machine's port.
    expect(refusal(local, "evil.example.com:42069", undefined)).toMatch(/^Host evil\.example\.com:42069 is not/);
    // A loopback Host, but a page of another site.
    expect(refusal(local, "127.0.0.1:42069", "http://evil.example.com")).toMatch(/^Origin http:\/\/evil/);
    expect(refusal(hosted, "kusd.example.org", "null")).toMatch(/^Origin null may not/);
  });

  it("lets through clients without Origin on the site's and loopback hosts, and allowed pages", () => {
    expect(refusal(local, "localhost:42069", undefined)).toBeNull();
    expect(refusal(local, "127.0.0.1:42069", undefined)).toBeNull();
    expect(refusal(local, "[::1]:42069", undefined)).toBeNull();
    expect(refusal(local, "127.0.0.1:42069", "http://localhost:42069")).toBeNull();
    // A local MCP inspector on another port, while the site is on loopback.
    expect(refusal(local, "127.0.0.1:42069", "http://localhost:6274")).toBeNull();
    expect(refusal(hosted, "kusd.example.org", "https://kusd.example.org")).toBeNull();
    expect(refusal(hosted, "KUSD-INTERNAL:8080", "https://agents.example.com")).toBeNull();
  });

  it("a public site allows no loopback pages it was not told of", () => {
    expect(refusal(hosted, "kusd.example.org", "http://localhost:6274")).toMatch(/^Origin http:\/\/localhost:6274/);
  });

  it("answers 403 with a JSON-RPC error before the route", async () => {
    const app = new Hono();
    app.use("/mcp", originGuard(local));
    app.post("/mcp", (c) => c.json({ reached: true }));
    const refused = await app.request("http://evil.example.com/mcp", {
      method: "POST",
      headers: { origin: "http://evil.example.com" },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, data: { code: "origin_not_allowed" } },
    });
    const allowed = await app.request("http://127.0.0.1:42069/mcp", { method: "POST" });
    expect(await allowed.json()).toEqual({ reached: true });
  });
});
