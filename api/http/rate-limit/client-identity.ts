/**
 * Who a request comes from, for its budget: the socket's remote address; behind a trusted proxy
 * (KUSD_TRUSTED_PROXIES), the right-most X-Forwarded-For address that is not one of the trusted
 * proxies (proxy-addr, the rule of Express's `trust proxy`). Without a trusted proxy in front,
 * X-Forwarded-For is never read: a client writes there whatever it likes. A client is keyed by its
 * IPv4 address, or by its IPv6 /64: one host is handed a whole /64 and could otherwise walk
 * through 2^64 addresses, each with a budget of its own.
 */
import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";

/** Whether an address is in a list of addresses and CIDRs; an IPv4-mapped IPv6 address matches as its IPv4 form. */
export type AddressMatcher = (address: string) => boolean;

export function addressMatcher(list: readonly string[]): AddressMatcher {
  if (list.length === 0) return () => false;
  const trusted = proxyaddr.compile([...list]);
  return (address) => trusted(address, 0);
}

/**
 * The client's address: the socket's peer, or behind trusted proxies the nearest hop they did not
 * add themselves. An entry that is not an address (a proxy that writes `host:port`, a client's
 * own text passed along by a proxy it shares a network with) is not a client: the hop before it is.
 */
export function clientAddress(incoming: IncomingMessage, trustedProxies: AddressMatcher): string | null {
  const socket = incoming.socket?.remoteAddress ?? null;
  if (socket === null || !trustedProxies(socket)) return socket;
  const hops = proxyaddr.all(incoming, (address) => trustedProxies(address));
  for (let i = hops.length - 1; i >= 0; i--) if (ipaddr.isValid(hops[i]!)) return hops[i]!;
  return socket;
}

/** The key a client's budget is kept under: its IPv4 address, or its IPv6 /64 (`2001:db8:1:2::/64`). */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address.replace(/%.*$/, ""));
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}
