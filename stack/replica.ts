/**
 * The read replica's process: the service (`createReplicaApp`) over the indexer's PostgreSQL
 * views, on a port of its own.
 *
 *   DATABASE_URL=postgres://… KUSD_VIEWS_SCHEMA=kusd npm run serve:replica
 */
import type { Server } from "node:http";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { answerClientErrorsWithJson } from "../api/http/client-error.js";
import { createReplicaApp } from "../api/replica-app.js";
import { loadNetwork } from "../src/networks/index.js";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is required: the replica reads the indexer's PostgreSQL");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 42070);
const { app } = createReplicaApp({
  databaseUrl,
  viewsSchema: process.env.KUSD_VIEWS_SCHEMA ?? "kusd",
  network: await loadNetwork(),
  siteUrl: process.env.KUSD_SITE_URL ?? `http://localhost:${port}`,
  storeSchema: process.env.KUSD_STORE_SCHEMA,
  pageDir: resolve("web/dist"),
});
answerClientErrorsWithJson(serve({ fetch: app.fetch, port }) as Server);
console.log(`read replica on http://localhost:${port} (/graphql, /api/…)`);
