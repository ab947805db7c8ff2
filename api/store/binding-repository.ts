/** The published signer binding: kept by the API that signs it, read by replicas that cannot. */
import { desc, eq } from "drizzle-orm";
import { ATTESTATION_HASH } from "./checks.js";
import { type Db, OperatorStoreError, type Run } from "./operation.js";
import type { OperatorTables } from "./tables.js";

export interface BindingRepository {
  /** Idempotent: the same bytes are kept once. */
  save(artifact: string): Promise<void>;
  latest(): Promise<string | null>;
  /** The binding whose attestation_hash is `hash` (case-insensitive), as served; null if none. */
  byHash(hash: string): Promise<string | null>;
}

export function bindingRepository(db: Db, { signerBinding: t }: OperatorTables, run: Run): BindingRepository {
  return {
    save: (artifact) =>
      run("bindings.save", async () => {
        const hash = (JSON.parse(artifact) as { attestation_hash?: unknown }).attestation_hash;
        if (typeof hash !== "string" || !ATTESTATION_HASH.test(hash))
          throw new OperatorStoreError("a binding must carry its attestation_hash", {});
        await db
          .insert(t)
          .values({ artifact, attestationHash: hash.toLowerCase() })
          .onConflictDoNothing({ target: t.artifact });
      }),
    latest: () =>
      run("bindings.latest", async () => (await db.select().from(t).orderBy(desc(t.id)).limit(1))[0]?.artifact ?? null),
    byHash: (hash) =>
      run("bindings.byHash", async () => {
        if (!ATTESTATION_HASH.test(hash)) return null;
        return (
          (await db.select().from(t).where(eq(t.attestationHash, hash.toLowerCase())).limit(1))[0]?.artifact ?? null
        );
      }),
  };
}
