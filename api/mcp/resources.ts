/**
 * MCP resources: the latest signed statement (the stored bytes as published, so a client can
 * hash them itself) and the account registry's latest version, each read from its route.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { describeRefusal, type RouteCall } from "./tool-results.js";

export const RESOURCES = [
  {
    name: "latest-signed-statement",
    uri: "kusd://statements/latest",
    path: "/api/por/signed",
    title: "Latest signed reserves statement",
    description:
      "The latest hourly proof-of-reserves statement, byte for byte as GET /api/por/signed serves it: SHA-256 of signed_payload_canonical is attestation_hash, signed EIP-191 by the key the signer binding names.",
  },
  {
    name: "account-registry",
    uri: "kusd://registry/latest",
    path: "/api/por/accounts",
    title: "Account registry",
    description:
      "The operator's account registry, latest version (GET /api/por/accounts): every listed account with its role, the violation predicate and the membership proofs.",
  },
] as const;

/** A route's answer as a resource's contents; a refusal is an error the client sees with the route's code. */
export async function readRoute(call: RouteCall, uri: string, path: string): Promise<ReadResourceResult> {
  const res = await call(path);
  const text = await res.text();
  if (res.status !== 200) throw new Error(describeRefusal(res.status, text));
  return { contents: [{ uri, mimeType: "application/json", text }] };
}

export function registerResources(server: McpServer, call: RouteCall) {
  for (const r of RESOURCES)
    server.registerResource(
      r.name,
      r.uri,
      { title: r.title, description: r.description, mimeType: "application/json" },
      () => readRoute(call, r.uri, r.path),
    );
}
