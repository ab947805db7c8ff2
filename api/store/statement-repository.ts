/** The published signed statements, newest by signed time; idempotent on the attestation hash. */
import { desc, eq, lt, lte } from "drizzle-orm";
import { ATTESTATION_HASH, checkStatement, checkTimestamp } from "./checks.js";
import { type Db, OperatorStoreError, type Run } from "./operation.js";
import type { NewStatement, StoredStatement } from "./records.js";
import type { OperatorTables } from "./tables.js";

export const MAX_LIST_LIMIT = 500;

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

export function statementRepository(db: Db, { signedStatement: t }: OperatorTables, run: Run): StatementRepository {
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

    latest: () =>
      run("statements.latest", async () =>
        first(
          await db
            .select()
            .from(t)
            .orderBy(...newestFirst)
            .limit(1),
        ),
      ),

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
        return first(
          await db
            .select()
            .from(t)
            .where(lte(t.timestamp, at))
            .orderBy(...newestFirst)
            .limit(1),
        );
      }),
  };
}
