/**
 * The operator store's tables: state the read side owns and Ponder does not index. They live
 * in their own PostgreSQL schema because Ponder owns (and may drop or rebuild) its schema, and
 * the API's connection into it is read-only. The schema name is a parameter so tests and
 * parallel deployments can isolate themselves; `migrate.ts` holds the matching DDL.
 */
import { bigint, bigserial, boolean, integer, pgSchema, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const DEFAULT_OPERATOR_SCHEMA = "kusd_operator";

/** A statement's anchor: waiting to be attested (or its transaction to be mined), or on chain. */
export const ANCHOR_STATUSES = ["pending", "landed"] as const;
export type AnchorStatus = (typeof ANCHOR_STATUSES)[number];

/** `reserved` while a paid request is in flight, `settled` once its transfer landed on chain. */
export const PAYMENT_STATUSES = ["reserved", "settled", "released"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export function operatorTables(schemaName: string = DEFAULT_OPERATOR_SCHEMA) {
  const schema = pgSchema(schemaName);

  const signedStatement = schema.table("signed_statement", {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // Stored lower-case (see checkStatement in checks.ts) so the unique constraint is case-insensitive too.
    attestationHash: text("attestation_hash").notNull().unique(),
    signer: text("signer").notNull(),
    /** The signed unix time (seconds) from the payload, not when we stored it. */
    timestamp: bigint("timestamp", { mode: "number" }).notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    chainId: integer("chain_id").notNull(),
    status: text("status").notNull(),
    /** The published JSON document exactly as served: re-serialising would change the bytes. */
    artifact: text("artifact").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  });

  /** The signer binding exactly as served (operator-signed, public). */
  const signerBinding = schema.table("signer_binding", {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    artifact: text("artifact").notNull().unique(),
    /** Its attestation_hash, lower-case: a statement names the binding it was signed under by this hash. */
    attestationHash: text("attestation_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  });

  /**
   * A venue reading a signed statement used (the venue publishes current equity only): kept so the
   * report at that statement's block, and at later blocks until the next reading, can be rebuilt
   * with the same equity, and the statement's figures reproduced.
   */
  const venueReading = schema.table("venue_reading", {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    chainId: integer("chain_id").notNull(),
    /** The report block the reading was used at, and its hash (a reading on a branch since reorged away, or of another chain, is not used). */
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash"),
    account: text("account").notNull(),
    venueUrl: text("venue_url").notNull(),
    /** The venue's answer as parsed (equity, notional, positions, the venue's own time), JSON; null when the read failed. */
    state: text("state"),
    /** Why the read failed (state null). */
    reason: text("reason"),
    /** When we read it, unix ms (our clock; the venue's own time is inside `state`). */
    readAtMs: bigint("read_at_ms", { mode: "number" }).notNull(),
    /** The statement that used it (its attestation_hash, lower-case). */
    statementHash: text("statement_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  });

  const paymentAuthorization = schema.table(
    "payment_authorization",
    {
      network: text("network").notNull(),
      payer: text("payer").notNull(),
      nonce: text("nonce").notNull(),
      status: text("status").$type<PaymentStatus>().notNull(),
      resource: text("resource").notNull(),
      createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
      updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
      settlementTx: text("settlement_tx"),
      /** The chain head when the reservation was made: where a search for its settlement starts. */
      reservedBlock: bigint("reserved_block", { mode: "bigint" }),
      /**
       * False only for a settlement found on chain after its request died (see
       * api/paid/settlement-recovery.ts): the payer paid and got nothing, so one retry of the same
       * authorization is answered without a second charge.
       */
      delivered: boolean("delivered").notNull().default(true),
    },
    // The key is the replay-protection guarantee: one row per authorization, whatever its status.
    (t) => [primaryKey({ columns: [t.network, t.payer, t.nonce] })],
  );

  /**
   * Each statement's anchor on Base (an EAS attestation of its hash): one row per statement, so a
   * restart or a second signer never attests twice. `pending` until the attestation is mined; a
   * process works on a row only while it holds its lease (`claimedUntil`).
   */
  const statementAnchor = schema.table("statement_anchor", {
    attestationHash: text("attestation_hash").primaryKey(),
    status: text("status").$type<AnchorStatus>().notNull(),
    /** The attestation transaction once sent (a restart looks for its receipt before sending again). */
    txHash: text("tx_hash"),
    uid: text("uid"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    /** The anchor block's unix time (EAS records it as the attestation's time). */
    blockTime: bigint("block_time", { mode: "number" }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the next attempt may run (backoff), and until when a process holds the row. */
    notBefore: timestamp("not_before", { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  });

  return { schema, signedStatement, signerBinding, venueReading, paymentAuthorization, statementAnchor };
}

export type OperatorTables = ReturnType<typeof operatorTables>;
