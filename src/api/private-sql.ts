/**
 * Ponder's SQL-over-HTTP (`@ponder/client`), off the public API. The public service exposes no
 * raw SQL: Ponder 0.16's `/sql` caches its allow-list verdict under 40 bits of a hash (a colliding
 * pair lets a refused statement run), PGlite has no read-only role, and an unbounded query runs in
 * the API's own process. The tests still read the indexed tables row by row; they get this
 * listener on a loopback port of their own (KUSD_PRIVATE_SQL_PORT), which nothing outside the
 * machine can reach. Unset, nothing listens.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { client } from "ponder";

export function servePrivateSql(port: number | undefined, parts: Parameters<typeof client>[0]): void {
  if (port === undefined) return;
  const app = new Hono();
  app.use("/sql/*", client(parts));
  const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
  // A listener that was asked for and cannot listen stops the indexer (SIGTERM: Ponder's own
  // shutdown): its reader must not find something else answering on that port.
  server.on("error", (e) => {
    console.error(`[private-sql] 127.0.0.1:${port}: ${(e as Error).message}; stopping`);
    process.kill(process.pid, "SIGTERM");
  });
}
