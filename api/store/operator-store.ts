/**
 * The operator store: the read side's own small persistent database, for what Ponder does not
 * index (published signed statements now; x402 payment authorizations for replay protection).
 * It cannot live in Ponder's database schema: on PostgreSQL the API's connection there is
 * read-only, and with PGlite that database is embedded in the Ponder process. So it is either a
 * dedicated schema on the same PostgreSQL server (`databaseUrl`) or a separate embedded PGlite
 * directory.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { and, desc, eq, lt, lte, or } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { migrateOperatorStore } from "./migrate.js";
import { DEFAULT_OPERATOR_SCHEMA, operatorTables, type OperatorTables, type PaymentStatus } from "./tables.js";
import { KusdError } from "../../core/errors.js";

export const DEFAULT_OPERATOR_STORE_DIRECTORY = ".ponder/operator-store";

/**
 * postgres.js while the server is down: its default reconnect backoff grows to 20 s after a few
 * failures, and every query waits for it, so an outage of seconds made requests hang instead of
 * answering 503. No backoff: each query tries once and fails at once while the server refuses;
 * a connect that does not finish (a host that does not answer) gives up after 5 s.
 */
export const POSTGRES_OUTAGE_OPTIONS = { backoff: () => 0, connect_timeout: 5 };
export const MAX_LIST_LIMIT = 500;

export type OperatorStoreOptions = {
  /** PostgreSQL URL. Without it the store is an embedded PGlite database in `directory`. */
  databaseUrl?: string;
  /** PGlite data directory (created if missing); default `.ponder/operator-store`. */
  directory?: string;
  /** PostgreSQL schema holding the tables; default `kusd_operator`. */
  schema?: string;
};

export class OperatorStoreError extends KusdError<Record<string, unknown>> {
  override name = "OperatorStoreError";
  readonly code: string = "operator_store_failed";
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, details, options);
  }
}

export type NewStatement = {
  /** 0x + 64 hex; stored lower-case. */
  attestationHash: string;
  signer: string;
  /** The signed unix time (seconds). */
  timestamp: number;
  blockNumber: bigint;
  chainId: number;
  status: string;
  /** The published JSON document exactly as served. */
  artifact: string;
};

export type StoredStatement = NewStatement & { id: number; createdAt: Date };

export type PaymentKey = { network: string; payer: string; nonce: string };

export type PaymentAuthorization = PaymentKey & {
  status: PaymentStatus;
  resource: string;
  settlementTx: string | null;
  reservedBlock: bigint | null;
  delivered: boolean;
  createdAt: Date;
  updatedAt: Date;
};

export interface StatementRepository {
  /** Idempotent on the attestation hash: a duplicate returns `{ inserted: false }`. */
  insert(row: NewStatement): Promise<{ inserted: boolean }>;
  /** Highest signed timestamp, then highest id. */
  latest(): Promise<StoredStatement | null>;
  /** Newest first; `limit` clamped to 1..500; `before` is an exclusive signed timestamp. */
  list(options: { limit: number; before?: number }): Promise<StoredStatement[]>;
  /** Case-insensitive on the hex; a malformed hash is simply not found. */
  byHash(hash: string): Promise<StoredStatement | null>;
  /** The statement in force at `timestamp`: the newest signed at or before it. */
  latestAtOrBefore(timestamp: number): Promise<StoredStatement | null>;
}

export interface PaymentRepository {
  /**
   * Claims an authorization before it is settled. True for exactly one caller per key, even
   * concurrently and across processes; false if a row exists in any status.
   */
  reserve(reservation: PaymentKey & { resource: string; reservedBlock?: bigint | null }): Promise<boolean>;
  /**
   * Records the settlement. Idempotent for the same tx; throws if the key is not reserved.
   * `delivered: false` records a settlement whose request died before it answered.
   */
  markSettled(key: PaymentKey, txHash: string, options?: { delivered?: boolean }): Promise<void>;
  /** Deletes a reserved row so a failed, unsettled request can retry. Never touches settled rows. */
  release(key: PaymentKey): Promise<boolean>;
  get(key: PaymentKey): Promise<PaymentAuthorization | null>;
  /** Reservations not touched since `before`: requests that died (or hang) between reserve and settle. */
  staleReservations(before: Date, limit?: number): Promise<PaymentAuthorization[]>;
  /**
   * Claims the one answer owed for a settled, undelivered authorization of `resource`: its
   * settlement tx for exactly one caller, null for everyone else.
   */
  claimRedelivery(key: PaymentKey, resource: string): Promise<string | null>;
}

/** The published signer binding: kept by the API that signs it, read by replicas that cannot. */
export interface BindingRepository {
  /** Idempotent: the same bytes are kept once. */
  save(artifact: string): Promise<void>;
  latest(): Promise<string | null>;
  /** The binding whose attestation_hash is `hash` (case-insensitive), as served; null if none. */
  byHash(hash: string): Promise<string | null>;
}

export type NewVenueReading = {
  chainId: number;
  blockNumber: bigint;
  /** The block's hash, lower-case; null if it could not be read. */
  blockHash: string | null;
  /** The venue account read (stored lower-case). */
  account: string;
  venueUrl: string;
  /** The parsed answer, JSON; null when the read failed. */
  state: string | null;
  /** Why it failed (state null). */
  reason: string | null;
  readAtMs: number;
  statementHash: string | null;
};

export type StoredVenueReading = NewVenueReading & { id: number; createdAt: Date };

/** The venue readings statements used (the venue has no history of its own). */
export interface VenueReadingRepository {
  record(row: NewVenueReading): Promise<void>;
  /** The newest readings of `account` on `chainId` used at or before `blockNumber`, newest first (at most `limit`). */
  atOrBefore(chainId: number, account: string, blockNumber: bigint, limit?: number): Promise<StoredVenueReading[]>;
}

export interface OperatorStore {
  readonly backend: "pglite" | "postgres";
  readonly schema: string;
  readonly statements: StatementRepository;
  readonly bindings: BindingRepository;
  readonly venueReadings: VenueReadingRepository;
  readonly payments: PaymentRepository;
  close(): Promise<void>;
}

type Db = PgDatabase<PgQueryResultHKT>;

// Unquoted-identifier shape, so the name means the same thing in every tool that reads it.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const ATTESTATION_HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const MAX_INT8 = 2n ** 63n - 1n;
const MAX_INT4 = 2 ** 31 - 1;

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
  const run = async <T>(op: string, fn: () => Promise<T>): Promise<T> => {
    if (closed) throw new OperatorStoreError("operator store is closed", { ...where, op });
    try {
      return await fn();
    } catch (cause) {
      if (cause instanceof OperatorStoreError) throw cause;
      throw new OperatorStoreError(`operator store ${op} failed`, { ...where, op }, { cause });
    }
  };

  const tables = operatorTables(schema);
  return {
    backend,
    schema,
    statements: statementRepository(db, tables, run),
    bindings: bindingRepository(db, tables, run),
    venueReadings: venueReadingRepository(db, tables, run),
    payments: paymentRepository(db, tables, run),
    async close() {
      if (closed) return;
      closed = true;
      await closeClient();
    },
  };
}

type Run = <T>(op: string, fn: () => Promise<T>) => Promise<T>;

function bindingRepository(db: Db, { signerBinding: t }: OperatorTables, run: Run): BindingRepository {
  return {
    save: (artifact) =>
      run("bindings.save", async () => {
        const hash = (JSON.parse(artifact) as { attestation_hash?: unknown }).attestation_hash;
        if (typeof hash !== "string" || !ATTESTATION_HASH.test(hash)) throw new OperatorStoreError("a binding must carry its attestation_hash", {});
        await db.insert(t).values({ artifact, attestationHash: hash.toLowerCase() }).onConflictDoNothing({ target: t.artifact });
      }),
    latest: () => run("bindings.latest", async () => (await db.select().from(t).orderBy(desc(t.id)).limit(1))[0]?.artifact ?? null),
    byHash: (hash) =>
      run("bindings.byHash", async () => {
        if (!ATTESTATION_HASH.test(hash)) return null;
        return (await db.select().from(t).where(eq(t.attestationHash, hash.toLowerCase())).limit(1))[0]?.artifact ?? null;
      }),
  };
}

function venueReadingRepository(db: Db, { venueReading: t }: OperatorTables, run: Run): VenueReadingRepository {
  return {
    record: (row) =>
      run("venueReadings.record", async () => {
        if (typeof row.blockNumber !== "bigint" || row.blockNumber < 0n || row.blockNumber > MAX_INT8) throw new OperatorStoreError("blockNumber must be a non-negative int8 bigint", {});
        if (row.state !== null) JSON.parse(row.state); // refuse what could not be read back
        await db.insert(t).values({ ...row, account: row.account.toLowerCase(), blockHash: row.blockHash?.toLowerCase() ?? null, statementHash: row.statementHash?.toLowerCase() ?? null });
      }),
    atOrBefore: (chainId, account, blockNumber, limit = 8) =>
      run("venueReadings.atOrBefore", async () => {
        const rows = await db
          .select()
          .from(t)
          .where(and(eq(t.chainId, chainId), eq(t.account, account.toLowerCase()), lte(t.blockNumber, blockNumber)))
          .orderBy(desc(t.blockNumber), desc(t.id))
          .limit(Math.min(64, Math.max(1, limit)));
        return rows as StoredVenueReading[];
      }),
  };
}

function statementRepository(db: Db, { signedStatement: t }: OperatorTables, run: Run): StatementRepository {
  // Newest first; id breaks ties between statements signed in the same second.
  const newestFirst = [desc(t.timestamp), desc(t.id)] as const;
  const first = (rows: StoredStatement[]) => rows[0] ?? null;

  return {
    insert: (row) =>
      run("statements.insert", async () => {
        const value = checkStatement(row);
        const inserted = await db
          .insert(t)
          .values(value)
          .onConflictDoNothing({ target: t.attestationHash })
          .returning({ id: t.id });
        return { inserted: inserted.length > 0 };
      }),

    latest: () => run("statements.latest", async () => first(await db.select().from(t).orderBy(...newestFirst).limit(1))),

    list: ({ limit, before }) =>
      run("statements.list", async () => {
        if (!Number.isFinite(limit)) throw new OperatorStoreError("limit must be a number", { limit });
        const clamped = Math.min(MAX_LIST_LIMIT, Math.max(1, Math.trunc(limit)));
        const query = db.select().from(t);
        const filtered = before === undefined ? query : query.where(lt(t.timestamp, checkTimestamp(before, "before")));
        return filtered.orderBy(...newestFirst).limit(clamped);
      }),

    byHash: (hash) =>
      run("statements.byHash", async () => {
        if (!ATTESTATION_HASH.test(hash)) return null;
        return first(await db.select().from(t).where(eq(t.attestationHash, hash.toLowerCase())).limit(1));
      }),

    latestAtOrBefore: (timestamp) =>
      run("statements.latestAtOrBefore", async () => {
        const at = checkTimestamp(timestamp, "timestamp");
        return first(await db.select().from(t).where(lte(t.timestamp, at)).orderBy(...newestFirst).limit(1));
      }),
  };
}

function paymentRepository(db: Db, { paymentAuthorization: t }: OperatorTables, run: Run): PaymentRepository {
  const byKey = (key: PaymentKey) => {
    const k = checkKey(key);
    return and(eq(t.network, k.network), eq(t.payer, k.payer), eq(t.nonce, k.nonce));
  };
  const get = async (key: PaymentKey) => ((await db.select().from(t).where(byKey(key)).limit(1))[0] ?? null) as PaymentAuthorization | null;

  return {
    reserve: (reservation) =>
      run("payments.reserve", async () => {
        const key = checkKey(reservation);
        if (typeof reservation.resource !== "string") throw new OperatorStoreError("resource must be a string", {});
        // One statement, so the primary key decides the race: concurrent copies of the same
        // authorization (in this process or another) get exactly one returned row between them.
        const rows = await db
          .insert(t)
          .values({ ...key, resource: reservation.resource, status: "reserved", reservedBlock: reservation.reservedBlock ?? null })
          .onConflictDoNothing()
          .returning({ nonce: t.nonce });
        return rows.length > 0;
      }),

    markSettled: (key, txHash, options = {}) =>
      run("payments.markSettled", async () => {
        if (typeof txHash !== "string" || txHash === "") throw new OperatorStoreError("txHash must be a non-empty string", { key });
        const tx = normaliseHex(txHash);
        const rows = await db
          .update(t)
          .set({ status: "settled", settlementTx: tx, delivered: options.delivered ?? true, updatedAt: new Date() })
          // Settling again with the same tx is a retry, not a conflict.
          .where(and(byKey(key), or(eq(t.status, "reserved"), and(eq(t.status, "settled"), eq(t.settlementTx, tx)))))
          .returning({ nonce: t.nonce });
        if (rows.length > 0) return;
        const existing = await get(key);
        throw new OperatorStoreError("payment authorization is not reserved", {
          key: checkKey(key),
          status: existing?.status ?? null,
          settlementTx: existing?.settlementTx ?? null,
        });
      }),

    release: (key) =>
      run("payments.release", async () => {
        // Deleting (not marking `released`) frees the key for a retry; the status filter is what
        // keeps a settled authorization from ever being replayable.
        const rows = await db
          .delete(t)
          .where(and(byKey(key), eq(t.status, "reserved")))
          .returning({ nonce: t.nonce });
        return rows.length > 0;
      }),

    get: (key) => run("payments.get", () => get(key)),

    staleReservations: (before, limit = 100) =>
      run("payments.staleReservations", async () => {
        const rows = await db
          .select()
          .from(t)
          .where(and(eq(t.status, "reserved"), lt(t.updatedAt, before)))
          .orderBy(t.updatedAt)
          .limit(limit);
        return rows as PaymentAuthorization[];
      }),

    claimRedelivery: (key, resource) =>
      run("payments.claimRedelivery", async () => {
        const rows = await db
          .update(t)
          .set({ delivered: true, updatedAt: new Date() })
          .where(and(byKey(key), eq(t.status, "settled"), eq(t.delivered, false), eq(t.resource, resource)))
          .returning({ tx: t.settlementTx });
        return rows[0]?.tx ?? null;
      }),
  };
}

function checkStatement(row: NewStatement) {
  const bad = (message: string) => new OperatorStoreError(message, { attestationHash: row?.attestationHash });
  if (typeof row.attestationHash !== "string" || !ATTESTATION_HASH.test(row.attestationHash)) throw bad("attestationHash must be 0x + 64 hex");
  if (typeof row.signer !== "string" || row.signer === "") throw bad("signer must be a non-empty string");
  checkTimestamp(row.timestamp, "timestamp");
  if (typeof row.blockNumber !== "bigint" || row.blockNumber < 0n || row.blockNumber > MAX_INT8) throw bad("blockNumber must be a non-negative int8 bigint");
  if (!Number.isInteger(row.chainId) || row.chainId <= 0 || row.chainId > MAX_INT4) throw bad("chainId must be a positive int4");
  if (typeof row.status !== "string" || row.status === "") throw bad("status must be a non-empty string");
  if (typeof row.artifact !== "string" || row.artifact === "") throw bad("artifact must be a non-empty string");
  return {
    attestationHash: row.attestationHash.toLowerCase(),
    signer: row.signer,
    timestamp: row.timestamp,
    blockNumber: row.blockNumber,
    chainId: row.chainId,
    status: row.status,
    artifact: row.artifact,
  };
}

function checkTimestamp(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new OperatorStoreError(`${name} must be a non-negative integer (unix seconds)`, { [name]: value });
  return value;
}

function checkKey(key: PaymentKey): PaymentKey {
  for (const field of ["network", "payer", "nonce"] as const) {
    if (typeof key?.[field] !== "string" || key[field] === "") throw new OperatorStoreError(`payment ${field} must be a non-empty string`, { key });
  }
  // EVM addresses and EIP-3009 nonces are hex, and checksum casing must not make a second key
  // for the same authorization (that would be a replay). Non-hex values (e.g. base58 Solana
  // keys) are case-sensitive and kept as given.
  return { network: key.network, payer: normaliseHex(key.payer), nonce: normaliseHex(key.nonce) };
}

function normaliseHex(value: string): string {
  return HEX.test(value) ? value.toLowerCase() : value;
}
