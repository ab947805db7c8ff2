/**
 * x402 payment authorizations, for replay protection: each is reserved by exactly one request
 * before it is settled, and a settled one is never released.
 */
import { and, eq, lt, or } from "drizzle-orm";
import { checkKey, normaliseHex } from "./checks.js";
import { type Db, OperatorStoreError, type Run } from "./operation.js";
import type { PaymentAuthorization, PaymentKey } from "./records.js";
import type { OperatorTables } from "./tables.js";

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

export function paymentRepository(db: Db, { paymentAuthorization: t }: OperatorTables, run: Run): PaymentRepository {
  const byKey = (key: PaymentKey) => {
    const k = checkKey(key);
    return and(eq(t.network, k.network), eq(t.payer, k.payer), eq(t.nonce, k.nonce));
  };
  const get = async (key: PaymentKey) =>
    ((await db.select().from(t).where(byKey(key)).limit(1))[0] ?? null) as PaymentAuthorization | null;

  return {
    reserve: (reservation) =>
      run("payments.reserve", async () => {
        const key = checkKey(reservation);
        if (typeof reservation.resource !== "string") throw new OperatorStoreError("resource must be a string", {});
        // One statement, so the primary key decides the race: concurrent copies of the same
        // authorization (in this process or another) get exactly one returned row between them.
        const rows = await db
          .insert(t)
          .values({
            ...key,
            resource: reservation.resource,
            status: "reserved",
            reservedBlock: reservation.reservedBlock ?? null,
          })
          .onConflictDoNothing()
          .returning({ nonce: t.nonce });
        return rows.length > 0;
      }),

    markSettled: (key, txHash, options = {}) =>
      run("payments.markSettled", async () => {
        if (typeof txHash !== "string" || txHash === "")
          throw new OperatorStoreError("txHash must be a non-empty string", { key });
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
