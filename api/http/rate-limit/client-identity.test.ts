import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { addressMatcher, clientAddress, clientKey } from "./client-identity.js";

const request = (remoteAddress: string | undefined, forwardedFor?: string) =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage;

const noProxies = addressMatcher([]);
const proxies = addressMatcher(["10.0.0.0/8", "2001:db8:ffff::/48"]);

describe("clientAddress", () => {
  it("is the socket's address, X-Forwarded-For never read without a trusted proxy", () => {
    expect(clientAddress(request("203.0.113.7"), noProxies)).toBe("203.0.113.7");
    expect(clientAddress(request("203.0.113.7", "198.51.100.1"), noProxies)).toBe("203.0.113.7");
    // A client that is not a trusted proxy is not believed, whatever the list holds.
    expect(clientAddress(request("203.0.113.7", "198.51.100.1"), proxies)).toBe("203.0.113.7");
  });

  it("behind trusted proxies is the right-most forwarded address that is not one of them", () => {
    // The client wrote 1.1.1.1 itself; the proxy appended the peer it saw, 198.51.100.9.
    expect(clientAddress(request("10.0.0.2", "1.1.1.1, 198.51.100.9"), proxies)).toBe("198.51.100.9");
    // Two proxies: the edge (10.1.1.1) appended the client, the inner one the edge.
    expect(clientAddress(request("10.0.0.2", "1.1.1.1, 198.51.100.9, 10.1.1.1"), proxies)).toBe("198.51.100.9");
    expect(clientAddress(request("2001:db8:ffff::5", "2001:db8:1:2::abc"), proxies)).toBe("2001:db8:1:2::abc");
    // IPv4 peers of a dual-stack socket come IPv4-mapped; the trusted CIDR still matches them.
    expect(clientAddress(request("::ffff:10.0.0.2", "198.51.100.9"), proxies)).toBe("198.51.100.9");
  });

  it("skips a forwarded entry that is not an address, and is the proxy itself when nothing was forwarded", () => {
    expect(clientAddress(request("10.0.0.2", "198.51.100.9, unknown"), proxies)).toBe("10.0.0.2");
    expect(clientAddress(request("10.0.0.2", "198.51.100.9:4711"), proxies)).toBe("10.0.0.2");
    expect(clientAddress(request("10.0.0.2"), proxies)).toBe("10.0.0.2");
  });

  it("is null for a request whose socket has no peer (gone)", () => {
    expect(clientAddress(request(undefined), noProxies)).toBeNull();
  });
});

describe("clientKey", () => {
  it("keys IPv4 by the address (mapped or not) and IPv6 by its /64", () => {
    expect(clientKey("198.51.100.9")).toBe("198.51.100.9");
    expect(clientKey("::ffff:127.0.0.2")).toBe("127.0.0.2");
    expect(clientKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    // Every address of the /64 is one client, however written.
    expect(clientKey("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("addressMatcher", () => {
  it("matches addresses and CIDRs of both families, an IPv4-mapped address as IPv4", () => {
    const exempt = addressMatcher(["127.0.0.1", "192.0.2.0/24", "2001:db8::/32"]);
    expect(exempt("127.0.0.1")).toBe(true);
    expect(exempt("::ffff:127.0.0.1")).toBe(true);
    expect(exempt("127.0.0.2")).toBe(false);
    expect(exempt("192.0.2.200")).toBe(true);
    expect(exempt("2001:db8:5::1")).toBe(true);
    expect(exempt("2001:db9::1")).toBe(false);
    expect(addressMatcher([])("127.0.0.1")).toBe(false);
  });
});
