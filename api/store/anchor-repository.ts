/**
 * Each statement's anchor (an EAS attestation of its hash, api/statements/anchor-service.ts): one
 * row per statement hash, so a statement is attested once across restarts and processes. A
 * process works on a pending row only under a lease it took atomically (an UPDATE that matches
 * only an unclaimed or expired row), so two never send for the same statement at once; a process
 * that dies leaves a lease that expires.
 */
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Run } from "./operation.js";
import type { OperatorTables } from "./tables.js";

export type StoredAnchor = {
  attestationHash: string;
  status: "pending" | "landed";
  txHash: string | null;
  uid: string | null;
  blockNumber: bigint | null;
  blockTime: number | null;
  attempts: number;
  lastError: string | null;
};

export type LandedAnchor = { uid: string; txHash: string; blockNumber: bigint; blockTime: number };

export interface AnchorRepository {
  /** A pending row for the statement, unless one exists (idempotent). */
  want(attestationHash: string): Promise<void>;
  get(attestationHash: string): Promise<StoredAnchor | null>;
  /** Takes the lease of up to `limit` pending rows due now, oldest first, for `leaseMs`. */
  claimDue(leaseMs: number, limit: number): Promise<StoredAnchor[]>;
  /** The attestation transaction sent (kept before waiting for it: a restart looks for its receipt). */
  sent(attestationHash: string, txHash: string): Promise<void>;
  landed(attestationHash: string, a: LandedAnchor): Promise<void>;
  /** An attempt failed: the reason, and when to try again; the lease is given back. */
  failed(attestationHash: string, error: string, retryInMs: number): Promise<void>;
  countByStatus(): Promise<Record<string, number>>;
}

export function anchorRepository(db: Db, { statementAnchor: t }: OperatorTables, run: Run): AnchorRepository {
  const key = (h: string) => h.toLowerCase();
  const row = (r: typeof t.$inferSelect): StoredAnchor => ({
    attestationHash: r.attestationHash,
    status: r.status,
    txHash: r.txHash,
    uid: r.uid,
    blockNumber: r.blockNumber,
    blockTime: r.blockTime,
    attempts: r.attempts,
    lastError: r.lastError,
  });
  return {
    want: (h) =>
      run("anchors.want", async () => {
        await db
          .insert(t)
          .values({ attestationHash: key(h), status: "pending" })
          .onConflictDoNothing();
      }),
    get: (h) =>
      run("anchors.get", async () => {
        const [r] = await db
          .select()
          .from(t)
          .where(eq(t.attestationHash, key(h)));
        return r ? row(r) : null;
      }),
    claimDue: (leaseMs, limit) =>
      run("anchors.claimDue", async () => {
        const due = db
          .select({ h: t.attestationHash })
          .from(t)
          .where(
            and(
              eq(t.status, "pending"),
              lt(t.notBefore, sql`now()`),
              or(isNull(t.claimedUntil), lt(t.claimedUntil, sql`now()`)),
            ),
          )
          .orderBy(asc(t.createdAt))
          .limit(limit);
        // The condition again in the UPDATE: of two processes claiming at once, one matches.
        const claimed = await db
          .update(t)
          .set({
            claimedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
            attempts: sql`${t.attempts} + 1`,
            updatedAt: sql`now()`,
          })
          .where(
            and(
              sql`${t.attestationHash} IN ${due}`,
              eq(t.status, "pending"),
              or(isNull(t.claimedUntil), lt(t.claimedUntil, sql`now()`)),
            ),
          )
          .returning();
        return claimed.map(row);
      }),
    sent: (h, txHash) =>
      run("anchors.sent", async () => {
        await db
          .update(t)
          .set({ txHash, updatedAt: sql`now()` })
          .where(eq(t.attestationHash, key(h)));
      }),
    landed: (h, a) =>
      run("anchors.landed", async () => {
        await db
          .update(t)
          .set({
            status: "landed",
            uid: a.uid,
            txHash: a.txHash,
            blockNumber: a.blockNumber,
            blockTime: a.blockTime,
            lastError: null,
            claimedUntil: null,
            updatedAt: sql`now()`,
          })
          .where(eq(t.attestationHash, key(h)));
      }),
    failed: (h, error, retryInMs) =>
      run("anchors.failed", async () => {
        await db
          .update(t)
          .set({
            lastError: error.slice(0, 500),
            notBefore: sql`now() + ${`${retryInMs} milliseconds`}::interval`,
            claimedUntil: null,
            updatedAt: sql`now()`,
          })
          .where(eq(t.attestationHash, key(h)));
      }),
    countByStatus: () =>
      run("anchors.countByStatus", async () => {
        const rows = await db.select({ status: t.status, n: sql<number>`count(*)::int` }).from(t).groupBy(t.status);
        return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      }),
  };
}
