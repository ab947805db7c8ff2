/**
 * Ponder's HTTP entry, kept thin: the service is `createApp` (api/app.ts), the same application the
 * read replica serves. Ponder itself adds /health, /ready, /status and /metrics, and
 * /ponder/graphql is its generated GraphQL. Raw SQL is not public (see private-sql.ts).
 */
import { resolve } from "node:path";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { graphql as ponderGraphql } from "ponder";
import { createApp } from "../../api/app.js";
import { loadSigningKeys } from "../../api/statements/keys.js";
import { StatementService } from "../../api/statements/statement-service.js";
import type { ReadDb } from "../../api/io/indexed-reads.js";
import { loadSignatureBook, RegistryService } from "../../api/registry/registry-service.js";
import { createReportContext, reportBlockHash } from "../../api/context.js";
import { openOperatorStore } from "../../api/store/operator-store.js";
import { venueRecords } from "../../api/statements/venue-records.js";
import { readServiceEnv } from "../../core/network/env.js";
import { loadNetwork } from "../networks/index.js";
import { servePrivateSql } from "./private-sql.js";
import type { Registry } from "prom-client";
import { createKusdMetrics } from "../../api/http/metrics.js";

const env = readServiceEnv(process.env);
const network = await loadNetwork(process.env);
const siteUrl = (env.KUSD_SITE_URL ?? `http://localhost:${env.PORT ?? 42069}`).replace(/\/$/, "");
// bench/bare declares its own "ponder:schema" module, which widens the type of `db` here.
// kUSD's figures join Ponder's own registry, so GET /metrics (Ponder's route) serves both.
// Ponder's /metrics route comes before ours, so without its registry there is nowhere to serve them.
const ponderRegistry = (globalThis as { PONDER_COMMON?: { metrics?: { registry?: Registry } } }).PONDER_COMMON?.metrics?.registry;
const metrics = ponderRegistry ? createKusdMetrics(ponderRegistry) : null;
const store = openOperatorStore({
  databaseUrl: env.DATABASE_URL,
  directory: env.KUSD_STORE_DIR,
  schema: env.KUSD_STORE_SCHEMA,
});
const ctx = createReportContext(network, db as unknown as ReadDb, siteUrl, {
  venueMaxAgeSeconds: env.KUSD_VENUE_MAX_AGE_SECONDS,
  headFreshMs: env.KUSD_HEAD_FRESH_MS,
  ...(metrics && { observeBuild: metrics.observeBuild }),
  // The hash read is the reports' own (memoised); it runs only once ctx exists.
  venueRecords: venueRecords(store, network, siteUrl, (n) => reportBlockHash(ctx, n)),
});
const keys = loadSigningKeys(network, process.env);
const statements = new StatementService(ctx, store, keys);
statements.start(env.KUSD_STATEMENT_INTERVAL_SECONDS ?? 3_600);

servePrivateSql(env.KUSD_PRIVATE_SQL_PORT, { db, schema });

export default createApp({
  ctx,
  statements,
  registry: new RegistryService(ctx, () => loadSignatureBook(ctx, process.env)),
  keys,
  store,
  siteUrl,
  adminToken: env.KUSD_ADMIN_TOKEN,
  checkResponses: env.KUSD_CHECK_RESPONSES ?? false,
  paymentLeaseSeconds: env.KUSD_PAYMENT_LEASE_SECONDS,
  benchRoutes: env.KUSD_BENCH_ROUTES ?? false,
  // Ponder runs with the project root as its working directory.
  pageDir: resolve("web/dist"),
  ...(metrics && { metrics: { kusd: metrics } }),
  host: (app) => {
    // Ponder's generated GraphQL over the same tables, kept for Ponder-native clients and as the
    // baseline of `npm run bench:api`; ours (with reports, filters and limits) is /graphql.
    app.use("/ponder/graphql", ponderGraphql({ db, schema }));
  },
});
