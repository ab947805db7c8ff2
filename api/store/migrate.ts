/**
 * Creates the operator store's schema and tables if they are missing. Plain idempotent DDL run
 * at every open, rather than drizzle-kit migrations: three tables do not need a migration
 * history, and the same statements work on PGlite and PostgreSQL. Keep this DDL in step with
 * `tables.ts`; a later column change needs an idempotent `ALTER TABLE ... ADD COLUMN IF NOT
 * EXISTS` here.
 */
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { ANCHOR_STATUSES, PAYMENT_STATUSES } from "./tables.js";

export async function migrateOperatorStore(db: PgDatabase<PgQueryResultHKT>, schemaName: string): Promise<void> {
  const s = sql.identifier(schemaName);
  // Status values are inlined (sql.raw) because DDL cannot take bind parameters.
  const statusCheck = sql.raw(PAYMENT_STATUSES.map((status) => `'${status}'`).join(", "));
  const anchorCheck = sql.raw(ANCHOR_STATUSES.map((status) => `'${status}'`).join(", "));
  await db.transaction(async (tx) => {
    // Two processes opening the store at once would otherwise race: CREATE ... IF NOT EXISTS
    // is not safe against a concurrent creator in PostgreSQL (duplicate key on the catalog).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('kusd-operator-store'), hashtext(${schemaName}))`);
    await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await tx.execute(sql`
      CREATE TABLE IF NOT EXISTS ${s}.signed_statement (
        id bigserial PRIMARY KEY,
        attestation_hash text NOT NULL UNIQUE,
        signer text NOT NULL,
        "timestamp" bigint NOT NULL,
        block_number bigint NOT NULL,
        chain_id integer NOT NULL,
        status text NOT NULL,
        artifact text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // latest(), list() and latestAtOrBefore() all walk this order.
    await tx.execute(sql`
      CREATE INDEX IF NOT EXISTS signed_statement_timestamp_id_idx
        ON ${s}.signed_statement ("timestamp" DESC, id DESC)`);
    await tx.execute(sql`
      CREATE TABLE IF NOT EXISTS ${s}.payment_authorization (
        network text NOT NULL,
        payer text NOT NULL,
        nonce text NOT NULL,
        status text NOT NULL CHECK (status IN (${statusCheck})),
        resource text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settlement_tx text,
        PRIMARY KEY (network, payer, nonce)
      )`);
    await tx.execute(sql`ALTER TABLE ${s}.payment_authorization ADD COLUMN IF NOT EXISTS reserved_block bigint`);
    await tx.execute(
      sql`ALTER TABLE ${s}.payment_authorization ADD COLUMN IF NOT EXISTS delivered boolean NOT NULL DEFAULT true`,
    );
    // The recovery sweep looks for reservations left behind by a request that died.
    await tx.execute(sql`
      CREATE INDEX IF NOT EXISTS payment_authorization_reserved_idx
        ON ${s}.payment_authorization (updated_at) WHERE status = 'reserved'`);
    // The operator-signed binding of the attestation key, as served, so that a read replica
    // (which holds no key) publishes the same binding as the indexer's API.
    await tx.execute(sql`
      CREATE TABLE IF NOT EXISTS ${s}.signer_binding (
        id bigserial PRIMARY KEY,
        artifact text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Statements name their binding by hash (signer_binding_hash); rows stored before the column
    // existed get it from their own artifact.
    await tx.execute(sql`ALTER TABLE ${s}.signer_binding ADD COLUMN IF NOT EXISTS attestation_hash text`);
    await tx.execute(
      sql`UPDATE ${s}.signer_binding SET attestation_hash = lower(artifact::json->>'attestation_hash') WHERE attestation_hash IS NULL`,
    );
    await tx.execute(
      sql`CREATE INDEX IF NOT EXISTS signer_binding_attestation_hash_idx ON ${s}.signer_binding (attestation_hash)`,
    );
    // The venue readings statements used, found by the newest at or before a block.
    await tx.execute(sql`
      CREATE TABLE IF NOT EXISTS ${s}.venue_reading (
        id bigserial PRIMARY KEY,
        chain_id integer NOT NULL,
        block_number bigint NOT NULL,
        block_hash text,
        account text NOT NULL,
        venue_url text NOT NULL,
        state text,
        reason text,
        read_at_ms bigint NOT NULL,
        statement_hash text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.execute(sql`
      CREATE INDEX IF NOT EXISTS venue_reading_account_block_idx
        ON ${s}.venue_reading (chain_id, account, block_number DESC, id DESC)`);
    // Each statement's EAS anchor: one row per statement, worked on under a lease.
    await tx.execute(sql`
      CREATE TABLE IF NOT EXISTS ${s}.statement_anchor (
        attestation_hash text PRIMARY KEY,
        status text NOT NULL CHECK (status IN (${anchorCheck})),
        tx_hash text,
        uid text,
        block_number bigint,
        block_time bigint,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        not_before timestamptz NOT NULL DEFAULT now(),
        claimed_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.execute(sql`
      CREATE INDEX IF NOT EXISTS statement_anchor_pending_idx
        ON ${s}.statement_anchor (not_before) WHERE status = 'pending'`);
  });
}
