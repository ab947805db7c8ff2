/**
 * The process `npm run bench:export` measures: the API's export routes (api/export/routes.ts,
 * unchanged) served by @hono/node-server over a scratch database the bench filled, PGlite in a
 * directory (in this process, as the indexer's API embeds it) or a PostgreSQL schema. Started
 * with the API process's heap flags (stack/indexer.ts heapFlags). Prints "ready <port>".
 */

import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { serve } from "@hono/node-server";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { ReportContext } from "../api/context.js";
import { exportRoutes } from "../api/export/routes.js";
import { withApiErrors } from "../api/http/errors.js";
import type { ReadDb } from "../api/io/indexed-reads.js";
import { createReportCaches } from "../api/report-caches.js";
import * as schema from "../ponder.schema.js";

const { values } = parseArgs({
  options: {
    pglite: { type: "string" },
    url: { type: "string" },
    schema: { type: "string" },
    port: { type: "string" },
  },
});

const db = values.pglite
  ? drizzlePglite(new PGlite(values.pglite), { schema })
  : drizzlePostgres(
      postgres(values.url!, { max: 4, connection: { search_path: values.schema! }, onnotice: () => {} }),
      {
        schema,
      },
    );
const ctx = {
  db: db as unknown as ReadDb,
  headFreshMs: 0,
  caches: createReportCaches({ headFreshMs: 0, venueMaxAgeSeconds: 0 }),
  network: { kUSD: { startBlock: 0 } },
} as unknown as ReportContext;
const app = withApiErrors(exportRoutes(ctx));
const server = serve({ fetch: app.fetch, port: Number(values.port), hostname: "127.0.0.1" }, (info) =>
  console.log(`ready ${info.port}`),
);
process.on("SIGTERM", () => server.close(() => process.exit(0)));
