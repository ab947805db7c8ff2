/**
 * The operator store: the read side's own small persistent database, for what Ponder does not
 * index (published signed statements now; x402 payment authorizations for replay protection).
 * It cannot live in Ponder's database schema: on PostgreSQL the API's connection there is
 * read-only, and with PGlite that database is embedded in the Ponder process. So it is either a
 * dedicated schema on the same PostgreSQL server (`databaseUrl`) or a separate embedded PGlite
 * directory.
 *
 * This file opens, migrates and closes it; each repository is in its own file
 * (statement-, binding-, venue-reading-, payment-repository.ts), their rows in records.ts, the
 * checks they share in checks.ts. Every name callers use is exported from here.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { type AnchorRepository, anchorRepository } from "./anchor-repository.js";
import { type BindingRepository, bindingRepository } from "./binding-repository.js";
import { migrateOperatorStore } from "./migrate.js";
import { createRun, type Db, OperatorStoreError } from "./operation.js";
import { type PaymentRepository, paymentRepository } from "./payment-repository.js";
import { type StatementRepository, statementRepository } from "./statement-repository.js";
import { DEFAULT_OPERATOR_SCHEMA, operatorTables } from "./tables.js";
import { type VenueReadingRepository, venueReadingRepository } from "./venue-reading-repository.js";

export type { LandedAnchor, StoredAnchor } from "./anchor-repository.js";
export { OperatorStoreError } from "./operation.js";
export type {
  NewStatement,
  NewVenueReading,
  PaymentAuthorization,
  PaymentKey,
  StoredStatement,
  StoredVenueReading,
} from "./records.js";
export { MAX_LIST_LIMIT } from "./statement-repository.js";
export type { AnchorRepository, BindingRepository, PaymentRepository, StatementRepository, VenueReadingRepository };

export const DEFAULT_OPERATOR_STORE_DIRECTORY = ".ponder/operator-store";

/**
 * postgres.js while the server is down: its default reconnect backoff grows to 20 s after a few
 * failures, and every query waits for it, so an outage of seconds made requests hang instead of
 * answering 503. No backoff: each query tries once and fails at once while the server refuses;
 * a connect that does not finish (a host that does not answer) gives up after 5 s.
 */
export const POSTGRES_OUTAGE_OPTIONS = { backoff: () => 0, connect_timeout: 5 };

export type OperatorStoreOptions = {
  /** PostgreSQL URL. Without it the store is an embedded PGlite database in `directory`. */
  databaseUrl?: string;
  /** PGlite data directory (created if missing); default `.ponder/operator-store`. */
  directory?: string;
  /** PostgreSQL schema holding the tables; default `kusd_operator`. */
  schema?: string;
};

export interface OperatorStore {
  readonly backend: "pglite" | "postgres";
  readonly schema: string;
  readonly statements: StatementRepository;
  readonly bindings: BindingRepository;
  readonly venueReadings: VenueReadingRepository;
  readonly payments: PaymentRepository;
  readonly anchors: AnchorRepository;
  close(): Promise<void>;
}

// Unquoted-identifier shape, so the name means the same thing in every tool that reads it.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openOperatorStore(options: OperatorStoreOptions = {}): Promise<OperatorStore> {
  const schema = options.schema ?? DEFAULT_OPERATOR_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) throw new OperatorStoreError("invalid schema name", { schema });

  let db: Db;
  let closeClient: () => Promise<void>;
  let backend: OperatorStore["backend"];
  let where: Record<string, unknown>;
  if (options.databaseUrl) {
    backend = "postgres";
    where = { backend, schema }; // never the URL: it may carry a password
    // CREATE ... IF NOT EXISTS raises a NOTICE on every open after the first; postgres.js would print it.
    const client = postgres(options.databaseUrl, { onnotice: () => {}, ...POSTGRES_OUTAGE_OPTIONS });
    db = drizzlePostgres(client);
    closeClient = () => client.end({ timeout: 5 });
  } else {
    backend = "pglite";
    const directory = resolve(options.directory ?? DEFAULT_OPERATOR_STORE_DIRECTORY);
    where = { backend, schema, directory };
    try {
      mkdirSync(directory, { recursive: true });
    } catch (cause) {
      throw new OperatorStoreError("cannot create the operator store directory", where, { cause });
    }
    const client = new PGlite(directory);
    db = drizzlePglite(client);
    closeClient = () => client.close();
  }

  try {
    await migrateOperatorStore(db, schema);
  } catch (cause) {
    await closeClient().catch(() => {});
    throw new OperatorStoreError("cannot open the operator store", where, { cause });
  }

  let closed = false;
  // Wraps every operation: a closed store and driver errors both surface as OperatorStoreError.
  const run = createRun(where, () => closed);

  const tables = operatorTables(schema);
  return {
    backend,
    schema,
    statements: statementRepository(db, tables, run),
    bindings: bindingRepository(db, tables, run),
    venueReadings: venueReadingRepository(db, tables, run),
    anchors: anchorRepository(db, tables, run),
    payments: paymentRepository(db, tables, run),
    async close() {
      if (closed) return;
      closed = true;
      await closeClient();
    },
  };
}
