/**
 * POST /mcp: the MCP server over Streamable HTTP (the SDK's web-standard transport, stateless,
 * JSON answers). Each request gets a server and a transport of its own, as the SDK requires for
 * stateless use; its tools call the app they are mounted on in-process, so every answer is the
 * route's own. GET and DELETE (a server-sent stream, ending a session) have nothing to serve
 * without sessions: the app's catch-all answers them 405 with Allow: POST. A request from a Host or
 * Origin the policy does not allow is refused first (origin-guard.ts).
 */

import type { NetworkConfig } from "@kusd/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Hono } from "hono";
import type { Address } from "viem";
import { bindingTrust } from "../paid/verify-before-charge.js";
import type { StatementService } from "../statements/statement-service.js";
import { registerFreeTools } from "./free-tools.js";
import { type McpOriginPolicy, originGuard } from "./origin-guard.js";
import { registerPaidTools } from "./paid-tools.js";
import { registerResources } from "./resources.js";
import { rpcRefusal } from "./rpc-policy.js";
import type { RouteCall } from "./tool-results.js";
import { registerVerifyReportTool } from "./verify-report-tool.js";
import { registerVerifyTool, type VerifyToolDeps } from "./verify-tool.js";

export type McpRoutesOptions = {
  /** The app the tools answer from: the one this route is mounted on. */
  app: { fetch: (request: Request) => Response | Promise<Response> };
  version: string;
  statements: Pick<StatementService, "binding">;
  /** The operator account the signer binding must be signed by. */
  operator: Address;
  /** Whether the paid gateway is mounted at /paid (a recipient and a facilitator are configured). */
  paid: boolean;
  /** Which Host and Origin may call /mcp (DNS-rebinding protection). */
  origins: McpOriginPolicy;
  /** The network verify_statement re-derives figures on, and the site (whose RPC URLs it refuses). */
  network: NetworkConfig;
  siteUrl: string;
};

const INSTRUCTIONS =
  "kUSD proof of reserves from public chain data. Free tools answer as the REST reports do (each names its GET route); figures are pinned to a block, with the cast command that reproduces each. Paid tools sell signed artifacts over x402 (USDC): call once to get the price (PaymentRequired), then pay with _meta['x402/payment']. verify_statement checks any signed artifact.";

type ServerParts = {
  version: string;
  paid: boolean;
  call: RouteCall;
  /** The paid gateway's descriptor (the prices), when the gateway is on. */
  descriptor: () => Promise<unknown>;
  verify: Omit<VerifyToolDeps, "call">;
};

/**
 * The SDK, loaded by the first MCP request rather than by every start: the indexer's API is built
 * before Ponder begins indexing, so what it loads delays every backfill and every restart.
 */
let sdkLoaded: Promise<
  typeof import("@modelcontextprotocol/sdk/server/mcp.js") &
    typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")
> | null = null;
const sdk = () =>
  (sdkLoaded ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]).then(([mcp, transport]) => ({ ...mcp, ...transport })));

/** The MCP server of one request: every tool and resource, answering through `call`. */
export async function createMcpServer(p: ServerParts): Promise<McpServer> {
  const { McpServer } = await sdk();
  const server = new McpServer({ name: "kusd", version: p.version }, { instructions: INSTRUCTIONS });
  registerFreeTools(server, p.call);
  registerVerifyTool(server, { ...p.verify, call: p.call });
  registerVerifyReportTool(server, { network: p.verify.network, refuseRpc: p.verify.refuseRpc, call: p.call });
  if (p.paid) registerPaidTools(server, p.call, await p.descriptor());
  registerResources(server, p.call);
  // A stateless server (GET /mcp is 405) has no stream to send list-changed notifications on;
  // the SDK advertises them whenever tools or resources are registered.
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}

export function mcpRoutes(o: McpRoutesOptions) {
  const app = new Hono();
  // The gateway's descriptor, for the paid tools' prices (fixed for the app's life): read once it answers.
  let descriptor: Promise<unknown> | null = null;
  // The binding checked against the operator once per binding, not once per request.
  const verify = {
    trust: bindingTrust(() => o.statements.binding(), o.operator),
    trustDescription: `signer binding signed by operator ${o.operator}`,
    network: o.network,
    refuseRpc: rpcRefusal(o.siteUrl),
  };
  app.use("/mcp", originGuard(o.origins));
  app.post("/mcp", async (c) => {
    const origin = new URL(c.req.url).origin;
    const call: RouteCall = async (path, init) => o.app.fetch(new Request(new URL(path, origin), init));
    const prices = async () => {
      descriptor ??= call("/paid/openapi.json").then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
      try {
        return await descriptor;
      } catch {
        descriptor = null; // asked again by the next request; meanwhile the tools say no price
        return null;
      }
    };
    const server = await createMcpServer({ version: o.version, paid: o.paid, call, descriptor: prices, verify });
    const { WebStandardStreamableHTTPServerTransport } = await sdk();
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // JSON answers are complete when handleRequest returns: nothing of this request stays open.
      await server.close();
    }
  });
  return app;
}
