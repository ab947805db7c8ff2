/**
 * Which RPC URLs verify_statement reads from when an agent names one: this server makes the
 * requests, so a URL must not turn it into a probe of the network it runs in. Loopback and
 * private addresses are refused unless the site itself is on loopback (a devnet, a developer's
 * machine). A name is not resolved here: one that resolves to a private address is not caught,
 * which kusd-mcp and kusd-verify, running on the reader's own machine, do not need.
 */
const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^169\.254\./, /^172\.(1[6-9]|2\d|3[01])\./, /^0\./];

export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1" || h === "::") return true;
  if (/^f[cd][0-9a-f]{2}:/.test(h) || h.startsWith("fe80:")) return true;
  return PRIVATE_V4.some((r) => r.test(h));
}

/** The refusal of `rpc` for a site at `siteUrl`, or null when the server may read from it. */
export function rpcRefusal(siteUrl: string): (rpc: string) => string | null {
  const local = isPrivateHost(new URL(siteUrl).hostname);
  return (rpc) =>
    !local && isPrivateHost(new URL(rpc).hostname)
      ? `this server does not read from ${new URL(rpc).host} (a loopback or private address); run kusd-verify or kusd-mcp on your own machine to use it`
      : null;
}
