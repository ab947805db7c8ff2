/**
 * A standalone read replica: the same application as the indexer's API (`createApp`), served from
 * PostgreSQL by a process of its own (postgres.js + drizzle over Ponder's views schema), so reads scale
 * horizontally apart from the indexer. It reads the signed statements the indexer's API stores
 * but signs nothing itself. Run it with `npm run serve:replica` (stack/replica.ts).
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "../ponder.schema.js";
import type { NetworkConfig } from "../core/network/types.js";
import { StatementService } from "./statements/statement-service.js";
import { createApp } from "./app.js";
import { collectDefaultMetrics, Registry } from "prom-client";
import { createKusdMetrics } from "./http/metrics.js";
import type { ReadDb } from "./io/indexed-reads.js";
import { loadSignatureBook, RegistryService } from "./registry/registry-service.js";
import { createReportContext, reportBlockHash } from "./context.js";
import { openOperatorStore, POSTGRES_OUTAGE_OPTIONS } from "./store/operator-store.js";
import { venueRecords } from "./statements/venue-records.js";

export type ReplicaOptions = { databaseUrl: string; viewsSchema: string; network: NetworkConfig; siteUrl: string; storeSchema?: string; maxConnections?: number; checkResponses?: boolean; pageDir?: string };

export function createReplicaApp(o: ReplicaOptions) {
  const client = postgres(o.databaseUrl, { max: o.maxConnections ?? 10, connection: { search_path: o.viewsSchema }, onnotice: () => {}, ...POSTGRES_OUTAGE_OPTIONS });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as ReadDb;
  // The replica has no Ponder: it serves its own GET /metrics (the kUSD figures and Node's).
  const metricsRegistry = new Registry();
  collectDefaultMetrics({ register: metricsRegistry });
  const metrics = createKusdMetrics(metricsRegistry);
  const store = openOperatorStore({ databaseUrl: o.databaseUrl, schema: o.storeSchema });
  const ctx = createReportContext(o.network, db, o.siteUrl, { observeBuild: metrics.observeBuild, venueRecords: venueRecords(store, o.network, o.siteUrl, (n) => reportBlockHash(ctx, n)) });
  // No keys: the replica serves stored statements and never signs.
  const keys = { operator: null, attestation: null, attestationFrom: o.network.reporting.signers.attestationFrom };
  const statements = new StatementService(ctx, store, keys);
  const registry = new RegistryService(ctx, () => loadSignatureBook(ctx));
  const app = createApp({ ctx, statements, registry, keys, store, siteUrl: o.siteUrl, checkResponses: o.checkResponses, pageDir: o.pageDir, metrics: { kusd: metrics, serveFrom: metricsRegistry } });
  return { app, close: async () => { await client.end(); await (await store).close(); } };
}
