/**
 * A standalone read replica: the same service as the indexer's API (`createService`), served from
 * PostgreSQL by a process of its own (postgres.js + drizzle over Ponder's views schema), so reads
 * scale horizontally apart from the indexer. It reads the signed statements the indexer's API
 * stores but signs nothing itself. Run it with `npm run serve:replica` (stack/replica.ts).
 */

import type { NetworkDocument, ServiceEnv } from "@kusd/config";
import type { NetworkConfig } from "@kusd/core";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { collectDefaultMetrics, Registry } from "prom-client";
import * as schema from "../ponder.schema.js";
import { dropCounterNamedGauges } from "./http/metric-names.js";
import { createKusdMetrics } from "./http/metrics.js";
import type { ReadDb } from "./io/indexed-reads.js";
import { createService } from "./services.js";
import { POSTGRES_OUTAGE_OPTIONS } from "./store/operator-store.js";

export type ReplicaOptions = {
  env: ServiceEnv & { DATABASE_URL: string };
  network: NetworkConfig;
  /** Served at /api/network. */
  networkDocument?: NetworkDocument;
  maxConnections?: number;
  pageDir?: string;
};

/**
 * Why a replica serves no paid gateway with the in-process facilitator, or null when it may. That
 * facilitator settles from one gas key with this process's own nonce counter; the indexer's API (or
 * another replica) settling from the same key beside it would hand out the same nonces. Every
 * process that serves `/paid` settles through one facilitator instead (`npm run serve:facilitator`,
 * docs/api.md).
 */
export function replicaPaidRefusal(network: NetworkConfig): string | null {
  if (network.payments.facilitator?.kind !== "local" || !network.payments.recipient) return null;
  return "the paid gateway is not served by this replica: its facilitator would settle in process from the gas key the indexer's API settles from, and two nonce counters on one key collide. Run `npm run serve:facilitator` once and set KUSD_X402_FACILITATOR_URL to it for every API process (docs/api.md#paid-settlement-across-processes)";
}

export function createReplicaApp(o: ReplicaOptions) {
  const refusal = replicaPaidRefusal(o.network);
  if (refusal) console.warn(`[paid] ${refusal}`);
  const network: NetworkConfig = refusal
    ? { ...o.network, payments: { ...o.network.payments, facilitator: null } }
    : o.network;
  const viewsSchema = o.env.KUSD_VIEWS_SCHEMA ?? "kusd";
  const client = postgres(o.env.DATABASE_URL, {
    max: o.maxConnections ?? 10,
    connection: { search_path: viewsSchema },
    onnotice: () => {},
    ...POSTGRES_OUTAGE_OPTIONS,
  });
  const db: ReadDb = drizzle(client, { schema, casing: "snake_case" });
  // The replica has no Ponder: it serves its own GET /metrics (the kUSD figures and Node's).
  const metricsRegistry = new Registry();
  collectDefaultMetrics({ register: metricsRegistry });
  dropCounterNamedGauges(metricsRegistry);
  const service = createService({
    env: o.env,
    network,
    ...(o.networkDocument && { networkDocument: o.networkDocument }),
    db,
    role: "replica",
    defaultPort: 42070,
    metrics: { kusd: createKusdMetrics(metricsRegistry), serveFrom: metricsRegistry, registry: metricsRegistry },
    ...(o.pageDir && { pageDir: o.pageDir }),
  });
  return {
    app: service.app,
    upgrade: service.upgrade,
    close: async () => {
      await client.end();
      await service.close();
    },
  };
}
