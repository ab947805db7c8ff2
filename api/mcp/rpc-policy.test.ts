import { describe, expect, it } from "vitest";
import { isPrivateHost, rpcRefusal } from "./rpc-policy.js";

describe("RPC URLs verify_statement reads from", () => {
  it("knows loopback and private addresses", () => {
    for (const h of [
      "localhost",
      "127.0.0.1",
      "10.1.2.3",
      "192.168.0.1",
      "172.20.0.1",
      "169.254.169.254",
      "[::1]",
      "[fd00::1]",
    ])
      expect([h, isPrivateHost(h)]).toEqual([h, true]);
    for (const h of ["mainnet.base.org", "8.8.8.8", "172.32.0.1", "[2001:db8::1]"])
      expect([h, isPrivateHost(h)]).toEqual([h, false]);
  });

  it("a public site refuses them; a site on loopback (a devnet) reads from its own machine", () => {
    expect(rpcRefusal("https://kusd.example.org")("http://169.254.169.254/latest")).toMatch(
      /does not read from 169\.254/,
    );
    expect(rpcRefusal("https://kusd.example.org")("https://mainnet.base.org")).toBeNull();
    expect(rpcRefusal("http://localhost:42069")("http://127.0.0.1:8545")).toBeNull();
  });
});
