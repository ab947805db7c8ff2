/**
 * The service as Ponder serves it: `createService` (api/services.ts), the same composition the
 * read replica uses, given Ponder's database and tables and the configuration parsed once in
 * src/config.ts. Loaded as one bundle (bundle.ts) rather than module by module under Ponder's
 * vite-node; in the bundle, its modules' imports of ponder.schema.ts are the tables Ponder hands it.
 * Ponder itself adds /health, /ready, /status and /metrics.
 */

import type { Server } from "node:http";
import { resolve } from "node:path";
import type { Hono, MiddlewareHandler } from "hono";
import { graphql as ponderGraphql } from "ponder";
import type { Registry } from "prom-client";
import { cacheLimits } from "../../api/cache-limits.js";
import { PONDER_GRAPHQL_BENCH_PATH } from "../../api/http/bench-routes.js";
import { compression } from "../../api/http/compression.js";
import { dropCounterNamedGauges, requestDurationInSeconds } from "../../api/http/metric-names.js";
import { createKusdMetrics } from "../../api/http/metrics.js";
import { indexedHead } from "../../api/io/indexed-reads.js";
import { createService, type ServiceOptions } from "../../api/services.js";
import { servePrivateSql } from "./private-sql.js";
import { onPonderServer, ponderServerMiddleware } from "./server-middleware.js";

type PonderParts = Parameters<typeof ponderGraphql>[0];

export type PonderApi = {
  app: Hono;
  /** Run by the patched server around every answer, Ponder's own routes included (server-middleware.ts). */
  serverMiddleware: MiddlewareHandler;
  /** Given Ponder's Node server by the patched server: GraphQL over WebSocket, JSON client errors. */
  onHttpServer: (server: Server) => void;
};

export function createPonderApi(o: {
  db: PonderParts["db"];
  schema: PonderParts["schema"];
  config: Pick<ServiceOptions, "env" | "network" | "networkDocument">;
}): PonderApi {
  const { db, schema } = o;
  const env = o.config.env;
  // kUSD's figures join Ponder's own registry, so GET /metrics (Ponder's route) serves both.
  // Ponder's /metrics route comes before ours, so without its registry there is nowhere to serve them.
  const ponderMetrics = (
    globalThis as {
      PONDER_COMMON?: { metrics?: { registry?: Registry } & Parameters<typeof requestDurationInSeconds>[1] };
    }
  ).PONDER_COMMON?.metrics;
  const ponderRegistry = ponderMetrics?.registry;
  if (ponderMetrics && ponderRegistry) {
    dropCounterNamedGauges(ponderRegistry);
    requestDurationInSeconds(ponderRegistry, ponderMetrics);
  }
  const metrics = ponderRegistry ? createKusdMetrics(ponderRegistry) : null;

  servePrivateSql(env.KUSD_PRIVATE_SQL_PORT, { db, schema });

  const service = createService({
    ...o.config,
    db,
    role: "signer",
    defaultPort: 42069,
    indexerInProcess: true,
    // Ponder runs with the project root as its working directory.
    pageDir: resolve(env.KUSD_PAGE_DIR ?? "web/dist"),
    ...(metrics && ponderRegistry && { metrics: { kusd: metrics, registry: ponderRegistry } }),
    // Ponder answers these GETs before the app (its server, node_modules/ponder/dist/esm/server):
    // another method on them reaches the app, which answers 405 naming GET and HEAD.
    hostRoutes: ["/health", "/ready", "/status", "/metrics"].map((path) => ({ method: "GET", path })),
    // Ponder's generated GraphQL over the same tables is the baseline of `npm run bench:api` only:
    // the API has one GraphQL endpoint, /graphql (filters, order, cursors, totalCount, block, limits
    // answered as BAD_USER_INPUT), while Ponder's answered `limit: 1001` with a masked 500.
    ...(env.KUSD_BENCH_ROUTES && {
      host: (app: Hono) => {
        app.use(PONDER_GRAPHQL_BENCH_PATH, ponderGraphql({ db, schema }));
      },
    }),
  });

  // Ponder's own routes are compressed by a middleware of their own, its kept bodies on /metrics too.
  const ponderRoutesCompressed = compression({
    maxCachedBytes: cacheLimits(env).compressedBytes,
    cacheName: "compressed_ponder_routes",
  });
  metrics?.watchCaches(ponderRoutesCompressed.sizes);
  const serverMiddleware = ponderServerMiddleware({
    databaseAnswers: () => indexedHead(service.ctx.db, "base"),
    ...(ponderRegistry && { metricsContentType: ponderRegistry.contentType }),
    compression: ponderRoutesCompressed,
  });
  return { app: service.app, serverMiddleware, onHttpServer: onPonderServer(service.upgrade) };
}
