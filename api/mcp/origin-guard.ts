/**
 * DNS-rebinding protection of POST /mcp, as the MCP transport specification requires ("servers
 * MUST validate the Origin header"): a page on another site whose name was re-pointed at this
 * machine reaches it with its own name in `Host` and its own origin in `Origin`. A request is
 * answered only when its Host names this service (the site URL's host, a loopback name, or one
 * configured) and its Origin, when a browser sent one, is allowed (the site's origin, one
 * configured, and loopback origins while the site itself is on loopback). Anything else is a 403
 * with a JSON-RPC error, before any tool runs. Clients that are not browsers send no Origin.
 */
import type { MiddlewareHandler } from "hono";

export type McpOriginPolicy = {
  /** Origins (`scheme://host[:port]`) whose pages may call /mcp. */
  origins: readonly string[];
  /** Host header values (`host[:port]`) this service answers to, beside loopback names. */
  hosts: readonly string[];
  /** Whether pages on loopback origins may call (a site on loopback: local development). */
  loopbackOrigins: boolean;
};

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

const isLoopback = (hostname: string) => LOOPBACK_HOSTNAMES.has(hostname.toLowerCase());

/** The policy of a site at `siteUrl`, with the configured extra origins and hosts. */
export function mcpOriginPolicy(
  siteUrl: string,
  configured: { origins?: readonly string[]; hosts?: readonly string[] } = {},
): McpOriginPolicy {
  const site = new URL(siteUrl);
  return {
    origins: [site.origin, ...(configured.origins ?? []).map((o) => new URL(o).origin)],
    hosts: [site.host, ...(configured.hosts ?? [])].map((h) => h.toLowerCase()),
    loopbackOrigins: isLoopback(site.hostname),
  };
}

/** Why a request's Host and Origin are refused, or null when they are allowed. */
export function refusal(policy: McpOriginPolicy, host: string, origin: string | undefined): string | null {
  const hostname = host.replace(/:\d+$/, "");
  if (!isLoopback(hostname) && !policy.hosts.includes(host.toLowerCase()))
    return `Host ${host} is not this service (allowed: ${policy.hosts.join(", ")} and loopback names; KUSD_MCP_ALLOWED_HOSTS adds more)`;
  if (origin === undefined) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(origin);
  } catch {
    // "null" (a sandboxed page, a file) and anything unparsable: no origin this service knows
  }
  if (parsed && (policy.origins.includes(parsed.origin) || (policy.loopbackOrigins && isLoopback(parsed.hostname))))
    return null;
  return `Origin ${origin} may not call this MCP server (allowed: ${policy.origins.join(", ")}${policy.loopbackOrigins ? " and loopback origins" : ""}; KUSD_MCP_ALLOWED_ORIGINS adds more)`;
}

/** Refuses, with 403 and a JSON-RPC error, a request whose Host or Origin the policy does not allow. */
export function originGuard(policy: McpOriginPolicy): MiddlewareHandler {
  return async (c, next) => {
    // The URL's host is the Host header as the server received it (Hono builds the URL from it).
    const why = refusal(policy, new URL(c.req.url).host, c.req.header("origin"));
    if (why === null) return next();
    return c.json(
      { jsonrpc: "2.0", error: { code: -32000, message: why, data: { code: "origin_not_allowed" } }, id: null },
      403,
    );
  };
}
