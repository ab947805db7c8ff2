/**
 * The service composed from its configuration: the one place that turns a parsed environment, a
 * network and a database into the report context, the operator store, the statements, the
 * registry and the application. Ponder's API (src/api/index.ts) and the read replica
 * (api/replica-app.ts) both call it, so they honour the same variables the same way.
 */

import type { NetworkDocument, ServiceEnv } from "@kusd/config";
import type { NetworkConfig } from "@kusd/core";
import type { Hono } from "hono";
import type { Registry } from "prom-client";
import { createApp, MAX_BODY_BYTES } from "./app.js";
import { BackgroundTasks } from "./background.js";
import { cacheLimits, codePresenceCache, limitCodePresence } from "./cache-limits.js";
import { configuredParts } from "./configured-parts.js";
import {
  createReportContext,
  DEFAULT_HEAD_FRESH_MS,
  indexerCaughtUp,
  type ReportContext,
  reportBlockHash,
} from "./context.js";
import { DEFAULT_WEBSOCKET_LIMITS, type GraphQLWebSocket, graphqlWebSocket } from "./graphql/websocket.js";
import { createGraphQL } from "./graphql/yoga.js";
import type { KnownRoute } from "./http/method-not-allowed.js";
import type { KusdMetrics } from "./http/metrics.js";
import { configuredRateLimit } from "./http/rate-limit/configured.js";
import { chargedUpgrade } from "./http/rate-limit/upgrade.js";
import { firstCatchUp } from "./io/first-catch-up.js";
import type { ReadDb } from "./io/indexed-reads.js";
import { indexerHeaders } from "./io/indexer-headers.js";
import { gateReadersVenueRequests, readerBudgets, venueGate } from "./reader-budgets.js";
import { loadSignatureBook, RegistryService } from "./registry/registry-service.js";
import { AnchorService } from "./statements/anchor-service.js";
import { loadSigningKeys, type SigningKeys, signerFor } from "./statements/keys.js";
import { HOUR_SECONDS, StatementService } from "./statements/statement-service.js";
import { venueRecords } from "./statements/venue-records.js";
import { openOnDemand } from "./store/open-on-demand.js";
import { type OperatorStore, openOperatorStore } from "./store/operator-store.js";

export type ServiceOptions = {
  env: ServiceEnv;
  network: NetworkConfig;
  /** The network document `network` was made from, served at /api/network (none: not served). */
  networkDocument?: NetworkDocument;
  db: ReadDb;
  /** The signing API signs statements (and the binding) and takes admin requests; a replica serves what the signer stored. */
  role: "signer" | "replica";
  /** The port the site is served on when KUSD_SITE_URL is unset. */
  defaultPort: number;
  /** kUSD's Prometheus figures; `serveFrom` when this app answers GET /metrics itself (the replica); `registry` where they are registered. */
  metrics?: { kusd: KusdMetrics; serveFrom?: Registry; registry?: Registry };
  pageDir?: string;
  /** Routes of the host that come before ours (Ponder's generated GraphQL). */
  host?: (app: Hono) => void;
  /** Routes the host answers itself before the app (Ponder's /metrics...), so a wrong method on them is a 405. */
  hostRoutes?: readonly KnownRoute[];
  /** The indexer runs in this process: reports take the headers of the blocks it read (io/indexer-headers.ts). */
  indexerInProcess?: boolean;
};

export type Service = {
  app: Hono;
  /** The HTTP server's 'upgrade' listener: GraphQL over WebSocket at /graphql (graphql/websocket.ts). */
  upgrade: GraphQLWebSocket["upgrade"];
  ctx: ReportContext;
  store: Promise<OperatorStore>;
  statements: StatementService;
  siteUrl: string;
  close(): Promise<void>;
};

export function createService(o: ServiceOptions): Service {
  const { env, network } = o;
  const siteUrl = (env.KUSD_SITE_URL ?? `http://localhost:${env.PORT ?? o.defaultPort}`).replace(/\/$/, "");
  // Opened by the first request that reads it, or by the background work below once it starts.
  const operatorStore = openOnDemand(() =>
    openOperatorStore({
      databaseUrl: env.DATABASE_URL,
      directory: env.KUSD_STORE_DIR,
      schema: env.KUSD_STORE_SCHEMA,
    }),
  );
  const store = operatorStore.value;
  // What reports read per request rather than per block is kept this long: a header the indexer
  // did not read, the RPC's head, holdsRole, and the recorded venue readings (the indexed head is
  // read every 100 ms, report-caches.ts).
  const headFreshMs = env.KUSD_HEAD_FRESH_MS ?? DEFAULT_HEAD_FRESH_MS;
  // Every cache's limit (cache-limits.ts), and its size on /metrics.
  const limits = cacheLimits(env);
  limitCodePresence(limits.rpcUrls);
  const headers = o.indexerInProcess ? indexerHeaders(network.chains.base.id, limits.headers) : null;
  // The hash read is the reports' own (memoised); it runs only once ctx exists.
  const venue = venueRecords(
    store,
    network,
    siteUrl,
    (n) => reportBlockHash(ctx, n),
    headFreshMs,
    limits.venueReadings,
  );
  const contextOptions = {
    venueMaxAgeSeconds: env.KUSD_VENUE_MAX_AGE_SECONDS,
    headFreshMs,
    ...(o.metrics && { observeBuild: o.metrics.kusd.observeBuild }),
    venueRecords: venue,
    ...(headers && { indexerHeaders: headers }),
    cacheLimits: limits,
  };
  // What readers cause at the providers draws on budgets of its own (reader-budgets.ts); the
  // statements and the catch-up check read through a context of their own, outside them.
  const budgets = readerBudgets(env);
  gateReadersVenueRequests();
  o.metrics?.kusd.watchReaderBudgets(budgets);
  const ctx: ReportContext = createReportContext(network, o.db, siteUrl, {
    ...contextOptions,
    readerBudget: budgets.rpc,
  });
  const operatorCtx = createReportContext(network, o.db, siteUrl, { ...contextOptions, operator: true });
  const signer = o.role === "signer";
  const keys: SigningKeys = signer
    ? loadSigningKeys(network, env)
    : { operator: null, attestation: null, attestationFrom: network.reporting.signers.attestationFrom };
  const statements = new StatementService(operatorCtx, store, keys);
  // Each statement the signing API signs is anchored on Base by the key that signed it.
  const anchors =
    signer && (keys.operator || keys.attestation)
      ? new AnchorService({
          store,
          rpcUrl: env.KUSD_ANCHOR_RPC_URL ?? network.reporting.readRpc.base,
          chainId: network.chains.base.id,
          signerFor: (t) => signerFor(keys, t)?.account ?? null,
          ...(network.chains.base.ethGetLogsBlockRange && {
            logRange: BigInt(network.chains.base.ethGetLogsBlockRange),
          }),
          onEvent: (e) => {
            o.metrics?.kusd.anchorAttempt(e.type === "failed" ? "failed" : e.found ? "found" : "attested");
            if (e.type === "failed")
              console.error(`[anchor] ${e.attestationHash}: ${e.error} (retry in ${e.retryInMs} ms)`);
          },
        })
      : null;
  // The statements' cadence, anchoring and the paid gateway's recovery sweep begin once the
  // indexer has first caught up (background.ts).
  const catchUp = firstCatchUp(async () => (await indexerCaughtUp(operatorCtx)).caughtUp);
  const background = new BackgroundTasks(catchUp.caughtUp);
  background.add(catchUp.stop);
  if (anchors) {
    statements.anchorWith(anchors);
    background.start(() => anchors.start().stop);
  }
  if (signer)
    background.start(() => {
      statements.start(env.KUSD_STATEMENT_INTERVAL_SECONDS ?? HOUR_SECONDS);
      return () => statements.stop();
    });
  const registry = new RegistryService(ctx, () => loadSignatureBook(ctx, env));
  // One GraphQL server for HTTP and WebSocket: the same schema, context, limits and masking.
  const graphql = createGraphQL(ctx, { statements, registry }, limits);
  o.metrics?.kusd.watchCaches(() => [
    ...ctx.caches.sizes(),
    ...venue.sizes(),
    ...(headers?.sizes() ?? []),
    ...graphql.caches(),
    codePresenceCache(),
  ]);
  const websocket = graphqlWebSocket(graphql, { ...DEFAULT_WEBSOCKET_LIMITS, maxMessageBytes: MAX_BODY_BYTES });
  // Per-client limits on every route and on WebSocket upgrades (http/rate-limit/).
  const rateLimits = configuredRateLimit(env, o.metrics?.registry);
  const app = createApp({
    ctx,
    statements,
    registry,
    graphql,
    keys,
    store,
    siteUrl,
    yieldPeers: { marketPeers: env.KUSD_MARKET_PEERS ?? [], honestyPeers: env.KUSD_HONESTY_PEERS ?? [] },
    ...configuredParts({ env, network, siteUrl, statements, store, keys, background }),
    ...(signer && { adminToken: env.KUSD_ADMIN_TOKEN }),
    ...(o.networkDocument && { networkDocument: o.networkDocument }),
    checkResponses: env.KUSD_CHECK_RESPONSES ?? false,
    benchRoutes: env.KUSD_BENCH_ROUTES ?? false,
    compressedBytes: limits.compressedBytes,
    ...(rateLimits && { rateLimit: rateLimits }),
    readerRequests: { venue: venueGate(network.reporting.venue.url, budgets.venue) },
    ...(o.pageDir && { pageDir: o.pageDir }),
    ...(o.metrics && { metrics: o.metrics }),
    ...(o.host && { host: o.host }),
    ...(o.hostRoutes && { hostRoutes: o.hostRoutes }),
  });
  return {
    app,
    upgrade: rateLimits ? chargedUpgrade(rateLimits, websocket.upgrade) : websocket.upgrade,
    ctx,
    store,
    statements,
    siteUrl,
    async close() {
      await background.stopAll();
      await websocket.close();
      await rateLimits?.store.close();
      await (await operatorStore.begun())?.close();
      headers?.close();
    },
  };
}
