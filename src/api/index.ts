/**
 * Ponder's HTTP entry, kept thin. Ponder itself serves /health, /ready and /status (the
 * indexed block per chain). /sql is Ponder's read-only SQL-over-HTTP for @ponder/client; the
 * reports, GraphQL and REST routes are mounted here from api/ as they land.
 */
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { client } from "ponder";

const app = new Hono();

app.use("/sql/*", client({ db, schema }));

export default app;
