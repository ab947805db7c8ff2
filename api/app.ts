/**
 * The one HTTP application: every route of the service, its error handling, the JSON 404 and the
 * mount order, built from its parts. Ponder's entry (src/api/index.ts) and the read replica
 * (api/replica-app.ts, run by stack/replica.ts) both serve `createApp`, so they answer the same
 * routes; Ponder adds only its own (`/health`, `/ready`, `/status`, `/metrics`).
 */

import type { NetworkDocument } from "@kusd/config";
import type { SecurityTxtConfig } from "@kusd/core";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { Registry } from "prom-client";
import { indexerCaughtUp, type ReportContext, reportHead, resolveReportBlock } from "./context.js";
import { discoveryRoutes, LLMS_TXT_PATH, WELL_KNOWN_X402_PATH } from "./discovery/routes.js";
import { eventsRoutes } from "./events/routes.js";
import { exportRoutes } from "./export/routes.js";
import { createGraphQL, type GraphQLServer, malformedGetParams, withGraphQLErrorBody } from "./graphql/yoga.js";
import { healthRoutes } from "./health/routes.js";
import { historyRoutes } from "./history/routes.js";
import { benchRoutes } from "./http/bench-routes.js";
import { bodyLimit } from "./http/body-limit.js";
import { compression } from "./http/compression.js";
import { anyOriginCors } from "./http/cors.js";
import { notFound, onApiError } from "./http/errors.js";
import { headContentLength } from "./http/head.js";
import { type KnownRoute, methodNotAllowed } from "./http/method-not-allowed.js";
import type { KusdMetrics } from "./http/metrics.js";
import { openApiDocument } from "./http/openapi-document.js";
import { pageRoutes } from "./http/page.js";
import { type RateLimitParts, rateLimit } from "./http/rate-limit/middleware.js";
import { readerRequests } from "./http/reader-requests.js";
import { countViolations } from "./io/indexed-reads.js";
import { lendingRoutes } from "./lending/routes.js";
import type { McpOriginPolicy } from "./mcp/origin-guard.js";
import { mcpRoutes } from "./mcp/routes.js";
import { networkRoutes } from "./network/routes.js";
import { createGateway, type GatewayOptions, refusesHead } from "./paid/gateway.js";
import { psmRoutes } from "./psm/routes.js";
import type { RegistryService } from "./registry/registry-service.js";
import { registryRoutes } from "./registry/routes.js";
import { loadPorReport } from "./reserves/por-service.js";
import { reservesRoutes } from "./reserves/routes.js";
import { riskRoutes } from "./risk/routes.js";
import type { SigningKeys } from "./statements/keys.js";
import { statementRoutes } from "./statements/routes.js";
import type { StatementService } from "./statements/statement-service.js";
import type { OperatorStore } from "./store/operator-store.js";
import { hedgeLedgerRoutes } from "./yield/hedge-ledger-routes.js";
import { NO_PEERS, type YieldPeers } from "./yield/peers.js";
import { yieldRoutes } from "./yield/routes.js";

/** The version of the free API's contract (the OpenAPI document's info.version). */
export const API_VERSION = "1.0.0";

/** The largest request body any route accepts (a GraphQL document or an instant-read request). */
export const MAX_BODY_BYTES = 16 * 1024;

export type AppParts = {
  ctx: ReportContext;
  statements: StatementService;
  registry: RegistryService;
  /** Signing keys; a replica has none and signs nothing (it serves stored statements). */
  keys: SigningKeys;
  /** What the yield reports show beside ours; unset: nothing. */
  yieldPeers?: YieldPeers;
  store: Promise<OperatorStore>;
  siteUrl: string;
  /** Bearer token for issuing a signed statement on demand; unset: that route is off. */
  adminToken?: string;
  /** Check every answer against its route's response schema (a breach answers 500): the e2e stack sets it. */
  checkResponses?: boolean;
  /** Serve GET /__bench/constant?bytes=N (a constant JSON body of about N bytes): the server's own limit, for `npm run bench:reports`. */
  benchRoutes?: boolean;
  /** Bytes of compressed bodies kept (KUSD_CACHE_COMPRESSED_MB; unset: compression.ts's default). */
  compressedBytes?: number;
  /** Per-client limits (http/rate-limit/, KUSD_RATE_LIMIT*); unset: none. */
  rateLimit?: RateLimitParts;
  /** Requests are readers' (http/reader-requests.ts): one its budget refused answers 503; unset: no budget. */
  readerRequests?: Parameters<typeof readerRequests>[0];
  /** The paid gateway's parts (paid/gateway-options.ts); null: the gateway is off. */
  gateway: GatewayOptions | null;
  /** Routes of the host that come before ours (Ponder's /sql and generated GraphQL). */
  host?: (app: Hono) => void;
  /** Routes the host answers before this app does (Ponder's /metrics...): known paths for the 405. */
  hostRoutes?: readonly KnownRoute[];
  /** The GraphQL server to mount at /graphql, when the host shares it (with its WebSocket endpoint: services.ts); unset: one of its own. */
  graphql?: GraphQLServer;
  /** security.txt's fields (health/routes.ts); null: not served. */
  securityTxt: SecurityTxtConfig | null;
  /** The origins and hosts /mcp accepts (mcp/origin-guard.ts). */
  mcpOrigins: McpOriginPolicy;
  /** The network document, served at /api/network. */
  networkDocument?: NetworkDocument;
  /** The built reserves page (web/dist), served at `/`; absent: `/` is the JSON 404. */
  pageDir?: string;
  /** kUSD's Prometheus figures; `serveFrom` when this app answers GET /metrics itself (the replica; Ponder serves the indexer's). */
  metrics?: { kusd: KusdMetrics; serveFrom?: Registry };
};

export function createApp(p: AppParts): Hono {
  const { ctx, statements, registry, keys, store } = p;
  const network = ctx.network;
  const statementSignedAt = async () => (await (await store).statements.latest())?.timestamp ?? null;
  const app = new Hono();
  app.onError(onApiError);
  // Browsers on any origin, on every route (http/cors.ts); a preflight is answered here, before anything else runs.
  app.use("*", anyOriginCors());
  // HEAD gets the GET's headers with the length of the body it leaves out (http/head.ts).
  app.use("*", headContentLength());
  // gzip or brotli as the client accepts, each body compressed once (http/compression.ts); inside
  // the HEAD middleware, so a HEAD's Content-Length is that of the coded body a GET gets.
  const compressed = compression({ ...(p.compressedBytes && { maxCachedBytes: p.compressedBytes }) });
  p.metrics?.kusd.watchCaches(compressed.sizes);
  app.use("*", compressed);
  // Every answer carries X-Request-Id; a 5xx body names it, and the log line that explains it.
  app.use("*", requestId());
  // Each client's request charged its cost against the client's budget, before anything of it
  // runs (a body over the limit included); over budget, 429 (http/rate-limit/, docs/api.md#limits).
  if (p.rateLimit)
    app.use(
      "*",
      rateLimit({
        ...p.rateLimit,
        indexedHead: async () => (await reportHead(ctx))?.blockNumber ?? null,
        maxBodyBytes: MAX_BODY_BYTES,
      }),
    );
  // No request of this API needs more than a few kilobytes: a larger body is read, dropped and answered 413 (http/body-limit.ts).
  app.use("*", bodyLimit({ maxBytes: MAX_BODY_BYTES }));
  // A request the readers' RPC budget refused a read answers 503 as a whole (http/reader-requests.ts).
  if (p.readerRequests)
    app.use(
      "*",
      readerRequests({
        ...p.readerRequests,
        indexedHead: async () => (await reportHead(ctx))?.blockNumber ?? null,
      }),
    );
  if (p.checkResponses) {
    app.use("*", async (c, next) => {
      c.set("checkResponses", true);
      await next();
    });
  }
  p.host?.(app);
  const openApi = openApiDocument(app, {
    siteUrl: p.siteUrl,
    version: API_VERSION,
    discovery: {
      llmsTxtUrl: `${p.siteUrl}${LLMS_TXT_PATH}`,
      mcpUrl: `${p.siteUrl}/mcp`,
      ...(p.gateway && {
        x402Url: `${p.siteUrl}${WELL_KNOWN_X402_PATH}`,
        paidOpenApiUrl: `${p.siteUrl}/paid/openapi.json`,
      }),
    },
  });
  if (p.benchRoutes) app.route("/", benchRoutes());
  app.get("/api/openapi.json", async (c) => c.json(await openApi()));
  app.route("/", registryRoutes(ctx, registry));
  app.route("/", eventsRoutes(ctx));
  app.route("/", yieldRoutes(ctx, keys, p.yieldPeers ?? NO_PEERS));
  app.route("/", hedgeLedgerRoutes(ctx));
  // /api/euler at the indexed head like the other reports (or ?block=N).
  app.route("/", lendingRoutes(ctx, { resolveBlock: (b) => resolveReportBlock(ctx, b) }));
  const graphql = p.graphql ?? createGraphQL(ctx, { statements, registry });
  app.on(["GET", "POST", "OPTIONS"], "/graphql", async (c) => {
    // A HEAD reaches this GET route (Hono drops the body after); yoga itself answers GET and POST only.
    const request = c.req.method === "HEAD" ? new Request(c.req.raw, { method: "GET" }) : c.req.raw;
    const malformed = request.method === "GET" ? malformedGetParams(new URL(c.req.url)) : null;
    if (malformed) return c.json({ errors: [{ message: malformed, extensions: { code: "BAD_REQUEST" } }] }, 400);
    return withGraphQLErrorBody(await graphql.answer(request));
  });
  app.route("/", reservesRoutes(ctx));
  app.route("/", historyRoutes(ctx));
  app.route("/", exportRoutes(ctx));
  app.route("/", psmRoutes(ctx));
  app.route("/", riskRoutes(ctx, statementSignedAt));
  app.route(
    "/",
    healthRoutes(ctx, {
      statementSignedAt,
      securityTxt: p.securityTxt,
    }),
  );
  app.route("/", statementRoutes({ ctx, statements, adminToken: p.adminToken }));
  if (p.pageDir) app.route("/", pageRoutes(p.pageDir));
  if (p.networkDocument) app.route("/", networkRoutes(p.networkDocument));
  if (p.metrics) {
    p.metrics.kusd.attach({
      por: async () => loadPorReport(ctx, await resolveReportBlock(ctx, undefined)),
      statementSignedAt,
      violations: () => countViolations(ctx.db),
      anchors: async () => (await store).anchors.countByStatus(),
      heads: async () => {
        const { indexed, chain } = await indexerCaughtUp(ctx);
        return [{ chain: "base", indexed, head: chain }];
      },
    });
    const registry = p.metrics.serveFrom;
    if (registry)
      app.get("/metrics", async (c) => c.body(await registry.metrics(), 200, { "content-type": registry.contentType }));
  }
  // The paid gateway ({base_url} = <site>/paid), when a recipient and a facilitator are configured.
  if (p.metrics) app.use("/paid/*", p.metrics.kusd.paidObserver());
  const { gateway } = p;
  if (gateway) app.route("/", createGateway(gateway));
  // llms.txt, and /.well-known/x402 with the gateway on (discovery/routes.ts).
  app.route("/", discoveryRoutes({ siteUrl: p.siteUrl, openApi, gateway }));
  app.route(
    "/",
    mcpRoutes({
      app,
      version: API_VERSION,
      statements,
      operator: network.reporting.signers.operator,
      paid: gateway !== null,
      origins: p.mcpOrigins,
      network,
      siteUrl: p.siteUrl,
    }),
  );
  // Every unknown path answers JSON, also when a host mounts this app as a sub-app (Ponder's own
  // routes come before it); a known path asked with another method is a 405 naming the allowed ones.
  app.all("*", methodNotAllowed(app, { hostRoutes: p.hostRoutes, refusesHead: (path) => refusesHead("/paid", path) }));
  app.notFound(notFound);
  return app;
}
