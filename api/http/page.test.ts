import { describe, expect, it } from "vitest";
import { pageCsp } from "./page.js";

describe("the page's content security policy", () => {
  it("reads from its own origin only", () => {
    expect(pageCsp(undefined)).toContain("connect-src 'self';");
  });
  it("adds the reader's RPC origin when the page is opened to check against it", () => {
    expect(pageCsp("https://base.example.org:8443/v1/key?x=1")).toContain(
      "connect-src 'self' https://base.example.org:8443;",
    );
    expect(pageCsp("http://127.0.0.1:8545")).toContain("connect-src 'self' http://127.0.0.1:8545;");
  });
  it("adds the reader's venue origin beside the RPC's, once", () => {
    expect(pageCsp("http://127.0.0.1:8545", "http://127.0.0.1:8547/info")).toContain(
      "connect-src 'self' http://127.0.0.1:8545 http://127.0.0.1:8547;",
    );
    expect(pageCsp("https://rpc.example.org", "https://rpc.example.org/info")).toContain(
      "connect-src 'self' https://rpc.example.org;",
    );
  });
  it("a venue without an RPC adds nothing: no check runs", () => {
    expect(pageCsp(undefined, "https://api.hyperliquid.xyz/info")).toContain("connect-src 'self';");
  });
  it("adds the reader's Ethereum RPC origin beside the RPC's, once, and nothing without an RPC", () => {
    expect(pageCsp("http://127.0.0.1:8545", "http://127.0.0.1:8547/info", "http://127.0.0.1:8546")).toContain(
      "connect-src 'self' http://127.0.0.1:8545 http://127.0.0.1:8547 http://127.0.0.1:8546;",
    );
    expect(pageCsp("https://rpc.example.org", undefined, "https://rpc.example.org/eth")).toContain(
      "connect-src 'self' https://rpc.example.org;",
    );
    expect(pageCsp(undefined, undefined, "https://eth.example.org")).toContain("connect-src 'self';");
    expect(pageCsp("http://127.0.0.1:8545", undefined, "https://a.example; script-src *")).toContain(
      "connect-src 'self' http://127.0.0.1:8545;",
    );
  });
  it("anything else adds nothing", () => {
    for (const bad of ["javascript:alert(1)", "not a url", "ftp://x.example", "https://a.example; script-src *"]) {
      expect(pageCsp(bad), bad).toContain("connect-src 'self';");
      expect(pageCsp("http://127.0.0.1:8545", bad), bad).toContain("connect-src 'self' http://127.0.0.1:8545;");
    }
  });
});
