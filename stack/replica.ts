/**
 * The read replica's process: the service (`createReplicaApp`) over the indexer's PostgreSQL
 * views, on a port of its own. Its environment is parsed here, once.
 *
 *   DATABASE_URL=postgres://… KUSD_VIEWS_SCHEMA=kusd npm run serve:replica
 */
import type { Server } from "node:http";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { readServiceEnv } from "@kusd/config";
import { loadNetwork, networkDocument } from "@kusd/config/node";
import { answerClientErrorsWithJson } from "../api/http/client-error.js";
import { keepIdleConnections } from "../api/http/keep-alive.js";
import { createReplicaApp } from "../api/replica-app.js";

const env = readServiceEnv(process.env);
const databaseUrl = env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is required: the replica reads the indexer's PostgreSQL");
  process.exit(2);
}
const port = env.PORT ?? 42070;
const { app, upgrade } = createReplicaApp({
  env: { ...env, DATABASE_URL: databaseUrl, PORT: port },
  network: await loadNetwork(env),
  networkDocument: networkDocument(env),
  pageDir: resolve(env.KUSD_PAGE_DIR ?? "web/dist"),
});
const server = serve({ fetch: app.fetch, port }) as Server;
answerClientErrorsWithJson(server);
keepIdleConnections(server);
// GraphQL subscriptions over WebSocket (graphql-ws) at /graphql, on the same port.
server.on("upgrade", upgrade);
console.log(`read replica on http://localhost:${port} (/graphql, /api/…)`);
